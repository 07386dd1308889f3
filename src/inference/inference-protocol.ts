/**
 * Messages between the main thread and the inference worker (src/inference/inference-worker.ts).
 * Vectors travel as one flat Float32Array per batch, transferred rather than copied.
 */
export type InferenceRequest =
  | {
      id: number;
      task: "embed";
      /** Absolute model directory (transformers.js layout: config, tokenizer, onnx/model_quantized.onnx). */
      modelDirectory: string;
      texts: string[];
      pooling: "cls" | "mean";
    }
  | {
      id: number;
      /** Loads the model (tokenizer and ONNX session) without running it: a question is about to come. */
      task: "load";
      modelDirectory: string;
      kind: "encoder" | "cross-encoder";
    }
  | {
      id: number;
      task: "score-pairs";
      modelDirectory: string;
      query: string;
      passages: string[];
      maxTokens: number;
    };

export type InferenceReply =
  | { id: number; ok: true; task: "embed"; vectors: Float32Array; dimensions: number }
  | { id: number; ok: true; task: "score-pairs"; scores: number[] }
  | { id: number; ok: true; task: "load" }
  | { id: number; ok: false; error: { code: string; message: string } };

export type InferenceWorkerOptions = {
  /** ONNX Runtime threads for one inference; 0 lets the runtime choose. */
  threads: number;
};
