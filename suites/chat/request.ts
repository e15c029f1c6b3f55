import type { components } from '../../generated/chat.ts';
import type { ChatSettings } from '../../harness/profile/types.ts';

type ChatRequest = components['schemas']['ChatRequest'];

/** One message of role user and plain text: what every reading of the document accepts (E-NS-MESSAGE-RULES). */
export const MESSAGES: ChatRequest['messages'] = [{ role: 'user', content: 'Hola' }];

/**
 * The body of every chat request the harness means to be valid: the document's messages, and the members the profile
 * says the deployment asks for beside them (requestMembers, E-NS-EXTRA-INPUT).
 */
export function chatRequest(settings: Pick<ChatSettings, 'requestMembers'>): ChatRequest {
  return { ...(settings.requestMembers ?? {}), messages: MESSAGES };
}

/**
 * Whether a client's allowance, one reply after another, would take a good part of the window (E-NS-REPLY-TIME: a
 * deployment waits for its model): the counting checks then send what the limit may still let through at once, so
 * that the limit can be reached within a window at all. `replyMs`: the longer of the stated and the measured reply time.
 */
export function slowReplies(settings: Pick<ChatSettings, 'windowMs' | 'maxRequests' | 'instances'>, replyMs: number): boolean {
  return replyMs * settings.maxRequests * settings.instances > settings.windowMs / 4;
}

/** Time a check plans for replies that wait for a model: `rounds` of requests sent at once, each one reply long. */
export const replyWaitMs = (settings: Pick<ChatSettings, 'replyMs'>, rounds: number) => rounds * (settings.replyMs ?? 0);
