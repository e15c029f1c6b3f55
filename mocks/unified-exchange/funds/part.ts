/**
 * The account, funds, earn, loan, P2P, copy-trading and broker operations of the reference: every operation that is
 * neither trading (/api/v3/trade/) nor market data. Valid, shallow state (funds/state.ts); each group of operations
 * lives in a module of its own, and this file only maps the spec's operation ids to them. The routing has checked the
 * credentials and the key's permission; the parameters' rules are checked again where they are the operation's own.
 */
import type { Part, PartOptions } from '../contract.ts';
import { accountAssets, accountInfo, accountSettings, adjustAccountMode, financialRecords, fundingAssets, repayLiabilities, setLeverage, transfer, transferableCoins } from './balances.ts';
import { copyMax, copyPairs, copyTransfer } from './copy.ts';
import { earnProducts, earnRecords, redeem, redeemInfo, subscribe, subscribeInfo } from './earn.ts';
import { borrow, loanCoins, loanHistory, ongoingLoans, repayLoan } from './loans.ts';
import { createAd, listAds } from './p2p.ts';
import { FundsStore } from './state.ts';
import { createBrokerSub, createSubAccount, listBrokerSubs, listSubAccounts } from './subaccounts.ts';
import { depositAddress, depositRecords, withdraw, withdrawalRecords } from './withdrawals.ts';
import { anotherClientMoves } from './other-client.ts';

export function createFunds(options: PartOptions): Part {
  const store = new FundsStore(options);
  const o = options;
  return {
    operations: {
      getAccountAssets: ({ caller }) => {
        if (o.fault('other-client-moves-funds')) anotherClientMoves(o, store, caller);
        return accountAssets(o, store, caller);
      },
      getFundingAssets: ({ caller, params }) => fundingAssets(o, store, caller, params),
      getAccountInfo: ({ caller }) => accountInfo(o, caller),
      getAccountSettings: ({ caller }) => accountSettings(o, store, caller),
      adjustAccountMode: ({ caller, params }) => adjustAccountMode(o, store, caller, params),
      setLeverage: ({ caller, params }) => setLeverage(o, store, caller, params),
      getFinancialRecords: ({ caller, params }) => financialRecords(o, store, caller, params),
      transfer: ({ caller, params }) => transfer(o, store, caller, params),
      getTransferableCoins: ({ params }) => transferableCoins(o, params),
      withdraw: ({ caller, params }) => withdraw(o, store, caller, params),
      getDepositAddress: ({ caller, params }) => depositAddress(o, caller, params),
      getDepositRecords: ({ caller, params }) => depositRecords(o, store, caller, params),
      getWithdrawalRecords: ({ caller, params }) => withdrawalRecords(o, store, caller, params),
      createSubAccount: ({ caller, params }) => createSubAccount(o, store, caller, params),
      listSubAccounts: ({ caller, params }) => listSubAccounts(o, store, caller, params),
      repayLiabilities: ({ caller, params }) => repayLiabilities(o, store, caller, params),
      getCopyTradingPairs: () => copyPairs(o),
      getCopyMaxTransferable: ({ caller, params }) => copyMax(o, store, caller, params),
      copyTransfer: ({ caller, params }) => copyTransfer(o, store, caller, params),
      getEarnProducts: () => earnProducts(o),
      subscribeEarn: ({ caller, params }) => subscribe(o, store, caller, params),
      getEarnSubscribeInfo: ({ caller, params }) => subscribeInfo(o, store, caller, params),
      redeemEarn: ({ caller, params }) => redeem(o, store, caller, params),
      getEarnRecords: ({ caller, params }) => earnRecords(o, store, caller, params),
      getEarnRedeemInfo: ({ caller, params }) => redeemInfo(o, store, caller, params),
      getLoanCoins: ({ params }) => loanCoins(o, params),
      borrow: ({ caller, params }) => borrow(o, store, caller, params),
      getOngoingLoans: ({ caller, params }) => ongoingLoans(o, store, caller, params),
      repayLoan: ({ caller, params }) => repayLoan(o, store, caller, params),
      getLoanHistory: ({ caller, params }) => loanHistory(o, store, caller, params),
      listP2pAds: ({ params }) => listAds(o, store, params),
      createP2pAd: ({ caller, params }) => createAd(o, store, caller, params),
      createBrokerSubAccount: ({ caller, params }) => createBrokerSub(o, store, caller, params),
      listBrokerSubAccounts: ({ caller, params }) => listBrokerSubs(o, store, caller, params),
    },
  };
}
