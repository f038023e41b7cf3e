// Compiled by `tsc --noEmit -p clients/js` (never run): the generated types (openapi.d.ts, from
// openapi.yaml by openapi-typescript) describe the bodies and answers the client passes around,
// and the client module itself type-checks.
import type { components, operations } from "./openapi";
import { TunkClient, TunkError, parseStandardCard, parseTopperCard } from "./tunk.js";

type Body<Op extends keyof operations> =
  operations[Op] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type Answer<Op extends keyof operations> =
  operations[Op] extends { responses: { 200: { content: { "application/json": infer A } } } }
    ? A
    : never;

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
