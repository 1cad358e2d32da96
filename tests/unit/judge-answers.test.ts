import { describe, expect, it } from "vitest";
import { readCompletion } from "../../lib/judge/endpoint.ts";
import { parseAnswer, parseGrade, storedAnswer, storedError, type TFailureReason } from "../../lib/judge/parse.ts";

/**
 * The final answer decides: the grade comes from the final answer only. Each row is one answer as a real
 * OpenAI-compatible server sends it (a whole chat.completions object: where the reasoning is, the
 * finish reason, the refusal field), read the way the runner reads it (endpoint.ts readCompletion,
 * then parse.ts parseAnswer), with the grade or the failure expected. The shapes follow the
 * servers' documented answers: OpenAI (refusal, annotations), vLLM (reasoning_content with a
 * reasoning parser, guided JSON, stop_reason), Ollama (reasoning, fp_ollama), llama.cpp (timings,
 * reasoning_content with --reasoning-format deepseek), LiteLLM (thinking_blocks,
 * provider_specific_fields), DeepSeek-R1 / Qwen3 without a reasoning parser (<think> in the text,
 * or only its closing tag when the chat template opened it), gpt-oss's harmony channels.
 */
type TMessage = Record<string, unknown>;
const usage = { prompt_tokens: 612, completion_tokens: 95, total_tokens: 707 };

const openai = (message: TMessage, finish = "stop") => ({
  id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
  object: "chat.completion",
  created: 1741570283,
  model: "gpt-4o-2024-08-06",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: null, refusal: null, annotations: [], ...message },
      logprobs: null,
      finish_reason: finish,
    },
  ],
  usage: {
    ...usage,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
  service_tier: "default",
  system_fingerprint: "fp_fc9f1d7035",
});
const vllm = (message: TMessage, finish = "stop", model = "Qwen/Qwen2.5-7B-Instruct") => ({
  id: "chatcmpl-8f1e0c7d2b6a4c1e9d3f5a7b9c0e1d2f",
  object: "chat.completion",
  created: 1733130000,
  model,
  choices: [
    {
      index: 0,
      message: { role: "assistant", reasoning_content: null, content: null, tool_calls: [], ...message },
      logprobs: null,
      finish_reason: finish,
      stop_reason: null,
    },
  ],
  usage: { ...usage, prompt_tokens_details: null },
  prompt_logprobs: null,
  kv_transfer_params: null,
});
const ollama = (message: TMessage, finish = "stop", model = "qwen3:8b") => ({
  id: "chatcmpl-431",
  object: "chat.completion",
  created: 1733130001,
  model,
  system_fingerprint: "fp_ollama",
  choices: [{ index: 0, message: { role: "assistant", content: "", ...message }, finish_reason: finish }],
  usage,
});
const llamacpp = (message: TMessage, finish = "stop") => ({
  choices: [{ finish_reason: finish, index: 0, message: { role: "assistant", content: "", ...message } }],
  created: 1733130002,
  model: "gpt-3.5-turbo",
  system_fingerprint: "b5123-4ab7c1e0",
  object: "chat.completion",
  usage,
  id: "chatcmpl-Xx1yZ2wV3uT4sR5qP6oN7mL8kJ9iH0gF",
  timings: { prompt_n: 612, prompt_ms: 210.4, predicted_n: 95, predicted_ms: 1480.2, predicted_per_second: 64.2 },
});
const litellm = (message: TMessage, finish = "stop", model = "anthropic/claude-sonnet-4") => ({
  id: "chatcmpl-5d1c7b2e-3f4a-4b6c-8d9e-0f1a2b3c4d5e",
  created: 1733130003,
  model,
  object: "chat.completion",
  system_fingerprint: null,
  choices: [
    {
      finish_reason: finish,
      index: 0,
      message: {
        content: null,
        role: "assistant",
        tool_calls: null,
        function_call: null,
        provider_specific_fields: {},
        ...message,
      },
    },
  ],
  usage,
});

const json = (score: unknown, intent = "how a heat pump works in winter") =>
  JSON.stringify({ intent, match: "the passage explains the defrost cycle", score });

type TExpect = number | TFailureReason;
const CASES: { shape: string; res: unknown; want: TExpect }[] = [
  // OpenAI
  { shape: "OpenAI, structured output", res: openai({ content: json(2) }), want: 2 },
  {
    shape: "OpenAI, plain UMBRELA text",
    res: openai({
      content: "Intent: the user wants the boiling point.\nMatch: the passage states it outright.\n##final score: 3",
    }),
    want: 3,
  },
  {
    shape: "OpenAI, structured refusal (content null, refusal field)",
    res: openai({ refusal: "I'm sorry, I can't assist with that request." }),
    want: "refusal",
  },
  {
    shape: "OpenAI, refusal in the text",
    res: openai({ content: "I'm sorry, but I can't help with evaluating this content." }),
    want: "refusal",
  },
  {
    shape: "OpenAI, cut at max_tokens inside the JSON",
    res: openai({ content: '{"intent": "how a heat pump works in winter", "match": "the passage expla' }, "length"),
    want: "truncated",
  },
  { shape: "OpenAI, content filter: no content", res: openai({}, "content_filter"), want: "empty" },
  // vLLM
  { shape: "vLLM guided JSON", res: vllm({ content: json(1) }), want: 1 },
  { shape: "vLLM guided JSON with leading whitespace (xgrammar)", res: vllm({ content: `\n\n  ${json(0)}` }), want: 0 },
  {
    shape: "vLLM guided JSON cut by max_tokens",
    res: vllm({ content: '{"intent": "how a heat pump works in winter", "match": "the passage explains' }, "length"),
    want: "truncated",
  },
  {
    shape: "vLLM without guided JSON: prose then JSON",
    res: vllm({ content: `Let me assess this.\nThe passage is about defrosting.\n${json(2)}` }),
    want: 2,
  },
  {
    shape: "vLLM + deepseek_r1 reasoning parser (reasoning_content holds a wrong number)",
    res: vllm(
      {
        reasoning_content:
          "The scale is 0-3. score: 0 would mean irrelevant, which is wrong here; it answers fully, so 3.",
        content: json(3),
      },
      "stop",
      "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
    ),
    want: 3,
  },
  {
    shape: "vLLM + reasoning parser, cut while reasoning (content null)",
    res: vllm(
      {
        reasoning_content:
          "Okay, the question asks about winter operation. score: 2 maybe? Let me check the passage again, it says",
      },
      "length",
      "Qwen/Qwen3-8B",
    ),
    want: "truncated",
  },
  {
    shape: "vLLM, reasoning only, finish stop, no final answer",
    res: vllm({ reasoning_content: "I think the score is 2.", content: "" }, "stop", "Qwen/Qwen3-8B"),
    want: "empty",
  },
  {
    shape: "DeepSeek-R1 on vLLM without a parser: template opened <think>, text starts inside it",
    res: vllm(
      {
        content: `Okay, the user asks about defrosting. A score: 0 is wrong here because the passage explains it.\n</think>\n\n${json(2)}`,
      },
      "stop",
      "deepseek-ai/DeepSeek-R1",
    ),
    want: 2,
  },
  // the issue's own example, verbatim (its JSON is not valid: the score is still read from the final answer)
  {
    shape: 'issue 19 example: <think>… the score: 0 is wrong here …</think>{"intent": …, "score": 2}',
    res: vllm(
      { content: '<think>… the score: 0 is wrong here …</think>{"intent": …, "score": 2}' },
      "stop",
      "Qwen/QwQ-32B",
    ),
    want: 2,
  },
  {
    shape: "Qwen3 with <think> in the text and a wrong number inside",
    res: vllm(
      {
        content: `<think>\nScale: 0 irrelevant ... 3 exact. First thought: score: 1. But it answers directly.\n</think>\n\n${json(3)}`,
      },
      "stop",
      "Qwen/Qwen3-32B",
    ),
    want: 3,
  },
  {
    shape: "Qwen3 no-think mode: empty <think></think> then the answer",
    res: vllm({ content: `<think>\n\n</think>\n\n${json(1)}` }, "stop", "Qwen/Qwen3-8B"),
    want: 1,
  },
  {
    shape: "<thinking> block (Claude-style prompt) then ##final score",
    res: vllm({
      content:
        "<thinking>The passage mentions 3 options; score: 3 seems too high.</thinking>\nIntent: ...\n##final score: 1",
    }),
    want: 1,
  },
  {
    shape: "<reasoning> block then JSON",
    res: vllm({ content: `<reasoning>numbers 0, 1, 2, 3 considered; final score: 0?</reasoning>${json(2)}` }),
    want: 2,
  },
  {
    shape: "unclosed <think> cut by the token limit",
    res: vllm(
      { content: "<think>\nThe user wants to know... so the final score: 3 unless the passage" },
      "length",
      "Qwen/Qwen3-8B",
    ),
    want: "truncated",
  },
  {
    shape: "unclosed <think>, finish stop (server ended the stream): no final answer",
    res: vllm({ content: "<think>\nHmm, score: 2" }),
    want: "empty",
  },
  // gpt-oss
  {
    shape: "gpt-oss on vLLM: reasoning_content + final JSON",
    res: vllm(
      { reasoning_content: "We need to output JSON with score. The passage... score 0? no, 2.", content: json(2) },
      "stop",
      "openai/gpt-oss-20b",
    ),
    want: 2,
  },
  {
    shape: "gpt-oss harmony served raw: analysis channel then final",
    res: llamacpp({
      content: `<|channel|>analysis<|message|>Candidate scores: 0 or 3. score: 0 fails the intent.<|end|><|start|>assistant<|channel|>final<|message|>${json(3)}<|return|>`,
    }),
    want: 3,
  },
  {
    shape: "gpt-oss harmony cut in the analysis channel",
    res: llamacpp({ content: "<|channel|>analysis<|message|>The passage; score: 1 is possible but" }, "length"),
    want: "truncated",
  },
  // Ollama
  { shape: "Ollama, plain JSON (format: json)", res: ollama({ content: json(0) }, "stop", "llama3.1:8b"), want: 0 },
  {
    shape: "Ollama with think: reasoning field apart",
    res: ollama({ content: json(2), reasoning: "score: 0 at first glance, but the passage does answer part of it" }),
    want: 2,
  },
  {
    shape: "Ollama, older: <think> inside content",
    res: ollama({ content: `<think>\nscore: 3?\n</think>\n\n##final score: 2` }, "stop", "deepseek-r1:8b"),
    want: 2,
  },
  {
    shape: "Ollama, JSON in a ```json fence",
    res: ollama({ content: "```json\n" + json(1) + "\n```" }, "stop", "mistral:7b"),
    want: 1,
  },
  // llama.cpp
  {
    shape: "llama.cpp --reasoning-format deepseek: reasoning_content apart",
    res: llamacpp({ content: "##final score: 1", reasoning_content: "The final score: 3 would be too generous." }),
    want: 1,
  },
  { shape: "llama.cpp, bare digit", res: llamacpp({ content: "2" }), want: 2 },
  { shape: "llama.cpp, bold digit", res: llamacpp({ content: "**3**" }), want: 3 },
  // LiteLLM
  {
    shape: "LiteLLM (Anthropic), reasoning_content + thinking_blocks",
    res: litellm({
      content: json(3),
      reasoning_content: "score: 1 would understate it",
      thinking_blocks: [
        { type: "thinking", thinking: "score: 1 would understate it", signature: "EqoBCkgIARABGAIiQ..." },
      ],
    }),
    want: 3,
  },
  {
    shape: "LiteLLM, content as a list of text parts",
    res: litellm({
      content: [
        { type: "text", text: "Intent: ..." },
        { type: "text", text: "\n##final score: 2" },
      ],
    }),
    want: 2,
  },
  {
    shape: "LiteLLM, refusal in the text",
    res: litellm({ content: "I cannot rate this passage, as it contains instructions directed at me." }),
    want: "refusal",
  },
  // the answer's own shape
  {
    shape: "JSON then trailing prose with another number",
    res: openai({ content: `${json(2)}\n\nNote: a score: 0 would be wrong; 3 would need the exact figure.` }),
    want: 2,
  },
  {
    shape: "two JSON objects: a draft and the final one (last wins)",
    res: openai({ content: `First pass: ${json(1)}\nOn reflection the passage answers it directly:\n${json(3)}` }),
    want: 3,
  },
  {
    shape: "template echoed with N, then the answer",
    res: openai({ content: `Format: {"intent": "...", "match": "...", "score": N}\n${json(1)}` }),
    want: 1,
  },
  {
    shape: "two ##final score lines: the last counts",
    res: openai({ content: "##final score: 1\nWait, re-reading: it gives the exact date.\n##final score: 3" }),
    want: 3,
  },
  {
    shape: "score nested one level down",
    res: openai({ content: JSON.stringify({ judgement: { intent: "x", score: 1 } }) }),
    want: 1,
  },
  { shape: "score as a string", res: openai({ content: '{"intent": "x", "match": "y", "score": "2"}' }), want: 2 },
  {
    shape: "score written as a word in JSON",
    res: openai({ content: '{"intent": "x", "match": "y", "score": "three"}' }),
    want: 3,
  },
  {
    shape: "score written as a word after ##final score",
    res: vllm({ content: "Intent: ...\n##final score: two" }),
    want: 2,
  },
  {
    shape: "relevance as a label, not a number",
    res: openai({ content: "Relevance: high. The passage is on topic." }),
    want: "no_score",
  },
  { shape: "out of range: 4", res: openai({ content: json(4) }), want: "out_of_range" },
  { shape: "out of range: -1", res: vllm({ content: "##final score: -1" }), want: "out_of_range" },
  { shape: "not whole: 2.5", res: openai({ content: json(2.5) }), want: "out_of_range" },
  { shape: 'out of range on a 0-10 scale: "10"', res: ollama({ content: '{"score": "10"}' }), want: "out_of_range" },
  { shape: "out of range as a word: five", res: ollama({ content: "##final score: five" }), want: "out_of_range" },
  {
    shape: "cut after a complete JSON answer: the answer stands",
    res: vllm({ content: `${json(2)}\n\nExplanation: the passage describes the` }, "length"),
    want: 2,
  },
  {
    shape: "cut after ##final score: the answer stands",
    res: openai({ content: "Intent: ...\n##final score: 1\nThe passage only" }, "length"),
    want: 1,
  },
  {
    shape: "cut after a loose 'score: 2': not trusted",
    res: openai({ content: "The passage is relevant, score: 2, although one could argue" }, "length"),
    want: "truncated",
  },
  { shape: "empty answer", res: openai({ content: "" }), want: "empty" },
  { shape: "whitespace only", res: llamacpp({ content: "\n\n  " }), want: "empty" },
  {
    shape: "no answer object at all (malformed server reply)",
    res: { object: "chat.completion", choices: [] },
    want: "empty",
  },
];

const outcome = (p: ReturnType<typeof parseAnswer>): TExpect => (p.grade !== null ? p.grade : p.reason);

describe("judge answers: the grade comes from the final answer only", () => {
  it("has at least 30 shapes", () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  it.each(CASES)("$shape → $want", ({ res, want }) => {
    const a = readCompletion(res);
    const parsed = parseAnswer(a);
    expect(outcome(parsed)).toBe(want);
    // What is stored (raw, and the error's prefix) reads the same again: `judge reparse` sees what the run saw.
    const again = parseAnswer(storedAnswer(a.raw, parsed.grade === null ? storedError(parsed) : null));
    expect(outcome(again)).toBe(want);
  });

  it("keeps the raw text of a truncated answer, reasoning field included", () => {
    const a = readCompletion(vllm({ reasoning_content: "Okay, so the score is", content: null }, "length"));
    expect(a.raw).toBe("<think>Okay, so the score is");
    expect(a.finishReason).toBe("length");
  });

  it("never reads the reasoning field for a grade, also when the text has none", () => {
    const a = readCompletion(vllm({ reasoning_content: '{"score": 3}', content: "" }));
    expect(parseAnswer(a)).toMatchObject({ grade: null, reason: "empty" });
  });

  it("parseGrade on plain text keeps the old answers' readings", () => {
    expect(parseGrade('{"score": 2}').grade).toBe(2);
    expect(parseGrade("score: 1").grade).toBe(1);
    expect(parseGrade("grade = 0").grade).toBe(0);
    expect(parseGrade("Final score is 3.").grade).toBe(3);
  });
});
