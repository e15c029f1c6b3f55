/** What the reference tests read of an HTTP answer: its status, headers, text, and the text as JSON where it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** An answer read whole; a body that is not JSON (a stream, an HTML page) has no `json`. */
export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
