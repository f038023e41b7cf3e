// Compiled by `tsc --noEmit -p clients/js` (never run): the generated types (openapi.d.ts, from
// openapi.yaml by openapi-typescript) describe the bodies and answers the client passes around,
// and the client module itself type-checks.
import type { components, operations } from "./openapi";
import type { Answer, RequestBody } from "./operations";
import { TunkClient, TunkError, createClient, parseStandardCard, parseTopperCard } from "./tunk.js";

type Body<Op extends keyof operations> = RequestBody<Op>;

const hand: components["schemas"]["GffMeldsRequest"]["hand"] = ["7H", "8H", "9H", "7S", "7D", "KC"];
const meldsBody: Body<"gffMelds"> = { hand, seat: 0 };
const checkBody: Body<"ttArrangement"> = {
  hand: ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
  melds: [["RH1", "RH2", "YT4"]],
  seat: 0,
};

export async function typed(client: TunkClient): Promise<number> {
  const answer = (await client.call("gffMelds", meldsBody)) as Answer<"gffMelds">;
  const verdict = (await client.call("ttArrangement", checkBody)) as Answer<"ttArrangement">;
  const card = parseStandardCard(answer.hand[0]);
  const wild = parseTopperCard("KB?").wild;
  try {
    await client.call("getRule", verdict.melds[0].rule ?? "TT-6");
  } catch (error) {
    if (error instanceof TunkError) return error.status;
  }
  return answer.best.deadwood_points + card.points + (wild ? 1 : 0);
}

// One typed method per operation: the body is checked, the answer typed.
export async function perOperation(): Promise<string | null> {
  const tunk = createClient({ baseUrl: "http://127.0.0.1:8000" });
  const melds = await tunk.t13Melds({ hand: ["5S", "6H", "7H"], round: 3, seat: 0 });
  const rule = await tunk.getRule("T13-1");
  const knock = await tunk.ttKnock({ hand: ["RH1", "YC2"], players: 3, seat: 0 });
  // @ts-expect-error: a hand is a list of strings, not a number
  await tunk.gffMelds({ hand: 5, seat: 0 });
  return melds.wild_rank ?? rule.title + knock.win_probability;
}
