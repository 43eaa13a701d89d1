// Finding "checkpoint instruction without the English engineering register" (CP-DH-11):
// a checkpoint instruction that does not ask for English engineering prose lets the
// summary drift into the conversation's language and register. The check looks for the word
// "English" together with an engineering/technical register word in the instruction texts. [INF]
import type { Finding, SimulatedSummariserRequest } from "../types";

const ENGLISH = /\bEnglish\b/;
const REGISTER = /\b(engineering|technical)\b/i;

function hasEnglishRegister(instruction: string): boolean {
  return ENGLISH.test(instruction) && REGISTER.test(instruction);
}

export function checkEnglishRegister(request: SimulatedSummariserRequest, requestIndex: number): Finding[] {
  const inputs = request.findingInputs;
  if (!inputs || !inputs.checkpointInstruction) return [];
  const texts = inputs.instructionTexts.filter((t) => t.trim().length > 0);
  if (texts.length === 0 || texts.some(hasEnglishRegister)) return [];
  return [
    {
      id: "checkpoint-not-english-register",
      severity: "warning",
      message: `${request.role} request: the checkpoint instruction does not require the English engineering register (compare CP-DH-11 v1/v2)`,
      location: { request: requestIndex },
      ruleId: "CP-DH-11",
    },
  ];
}
