#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): Paraformer-zh speech recognition with FunASR.

Answers every audio request with {"text": transcript}. Audio comes at 16 kHz (the entry's
input_sample_rate: 16000), 16-bit mono WAV.

  --model           ModelScope / Hugging Face id or local folder (default
                    iic/speech_seaco_paraformer_large_asr_nat-zh-cn-16k-common-vocab8404-pytorch,
                    the model FunASR's name "paraformer-zh" stands for, which Seed-TTS-Eval loads
                    with `AutoModel(model="paraformer-zh")`)
  --model-revision  the model's revision on the hub (default master, what FunASR fetches for
                    "paraformer-zh" when no revision is given, as in Seed-TTS-Eval; name a tag such
                    as v2.0.4 to pin it)
  --hub             ms (ModelScope, default) or hf (Hugging Face)
  --device          auto (cuda:0 when available), cpu, cuda:N
  --batch-size-s    FunASR's batch_size_s (default 300, as Seed-TTS-Eval)
  --chunk-seconds   0 (default): the whole clip at once; otherwise the clip is cut into pieces of
                    that length, each recognized on its own, and their stripped texts joined with
                    nothing between them (MGM-Omni's Long-TTS-Eval: 28)

As Seed-TTS-Eval's run_wer.py, the model runs alone (no VAD, no punctuation model) and each
clip's WAV path is handed to `model.generate(input=path, batch_size_s=300)`; the reply is
`res[0]["text"]` unchanged. Seed-TTS-Eval then converts it to simplified characters (zhconv
zh-cn) and strips punctuation: in aeval that is the evaluator's normalizer chain
(to-simplified, seed-tts-punctuation, tokenize-char), not this script.

Expected failures (FunASR missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "paraformer_asr.py:". The protocol plumbing
(replies, that line, reading WAV requests) is process_protocol.py's, beside this script.
"""
import argparse

import process_protocol as protocol

RATE = 16000
DEFAULT_MODEL = "iic/speech_seaco_paraformer_large_asr_nat-zh-cn-16k-common-vocab8404-pytorch"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help="hub id or local folder")
    parser.add_argument("--model-revision", default="master")
    parser.add_argument("--hub", default="ms", choices=["ms", "hf"])
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda:N")
    parser.add_argument("--batch-size-s", type=int, default=300)
    parser.add_argument("--chunk-seconds", type=float, default=0.0, help="0: whole clips; else pieces of this length")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    import funasr
    from funasr import AutoModel

    device = args.device
    if device == "auto":
        device = "cuda:0" if torch.cuda.is_available() else "cpu"
    try:
        model = AutoModel(model=args.model, model_revision=args.model_revision, hub=args.hub, device=device,
                          disable_update=True, disable_pbar=True, disable_log=True)
    except Exception as error:
        # FunASR reports a failed download on stdout and goes on; that line says more than the error
        download = [line.strip() for line in channel.held_lines() if line.startswith("Download:")]
        if download:
            error = download[-1]
        where = "ModelScope (MODELSCOPE_CACHE)" if args.hub == "ms" else "the Hugging Face cache (HF_HOME)"
        detail = error if isinstance(error, str) else protocol.describe(error, 200)
        channel.fail(f"cannot load {args.model} (no network or no local copy): {detail[:300]}: with "
                     f"network access the weights download from {where}, or pass --model "
                     f"/path/to/a/local/copy")
    identity = f"{args.model} {args.model_revision} (funasr {funasr.__version__}, no VAD, no punctuation"
    identity += f", {args.chunk_seconds:g} s pieces)" if args.chunk_seconds > 0 else ")"

    def recognize_pieces(samples):
        step = max(1, int(args.chunk_seconds * RATE))
        texts = []
        for start in range(0, samples.size, step):
            result = model.generate(input=samples[start:start + step], batch_size_s=args.batch_size_s)
            if result:
                texts.append(str(result[0].get("text", "")).strip())
        return {"text": "".join(t for t in texts if t)}

    def answer(request):
        path = protocol.first_audio(request)
        samples = protocol.read_wav(path, RATE)  # checks the file before FunASR (which takes a missing path for text)
        if args.chunk_seconds > 0:
            return recognize_pieces(samples)
        result = model.generate(input=path, batch_size_s=args.batch_size_s)
        if not result:
            raise RuntimeError("FunASR returned no result")
        return {"text": str(result[0].get("text", ""))}

    return identity, answer


if __name__ == "__main__":
    main()
