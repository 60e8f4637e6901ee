#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): Whisper speech recognition with Hugging Face transformers.

Answers every audio request with {"text": transcript}. Audio comes at 16 kHz (the entry's
input_sample_rate: 16000), 16-bit mono WAV.

  --model     Hugging Face id or local folder (default openai/whisper-large-v3)
  --language  english / chinese / any Whisper language name or code, forced as the decoder's
              language token (Seed-TTS-Eval forces "english" for its English set); "auto" forces
              none, so Whisper detects the language per clip (UltraEval-Audio's spoken-answer ASR)
  --device    auto (cuda when available), cpu, cuda, cuda:1, ...
  --dtype     float32 (default, as Seed-TTS-Eval runs it), float16, bfloat16
  --long-form sequential (default): a clip over 30 s is decoded with transformers' sequential
              long-form decoding; truncate: every clip is cut to its first 30 s, which is what
              Seed-TTS-Eval's run_wer.py does (its clips are shorter than that); chunks: the clip
              is cut into pieces of --chunk-seconds, each decoded on its own, and their stripped
              transcripts joined by spaces, empty ones left out (MGM-Omni's Long-TTS-Eval, 28 s)
  --chunk-seconds  the pieces' length for --long-form chunks (default 28)

Decoding is greedy (num_beams=1, no sampling) with task "transcribe", as Seed-TTS-Eval's
`model.generate(input_features, forced_decoder_ids=...)` with whisper-large-v3's generation
config; the transcript is batch_decode(..., skip_special_tokens=True) with surrounding spaces
stripped. Normalization for WER (punctuation, case) is the evaluator's business, not this script's.

Expected failures (a library missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "whisper_asr.py:". The protocol plumbing (replies,
that line, reading WAV requests) is process_protocol.py's, beside this script.
"""
import argparse

import process_protocol as protocol

RATE = 16000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="openai/whisper-large-v3", help="Hugging Face id or local folder")
    parser.add_argument("--language", default="auto",
                        help="english, chinese, another Whisper language, or auto (no forced language)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    parser.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    parser.add_argument("--long-form", default="sequential", choices=["sequential", "truncate", "chunks"],
                        help="clips over 30 s: sequential long-form decoding, cut to 30 s as Seed-TTS-Eval, "
                             "or decoded in pieces of --chunk-seconds as Long-TTS-Eval")
    parser.add_argument("--chunk-seconds", type=float, default=28.0, help="piece length for --long-form chunks")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    import transformers
    from transformers import WhisperForConditionalGeneration, WhisperProcessor

    transformers.logging.set_verbosity_error()
    device = protocol.pick_device(torch, args.device)
    dtype = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[args.dtype]
    try:
        processor = WhisperProcessor.from_pretrained(args.model)
        model = WhisperForConditionalGeneration.from_pretrained(args.model, torch_dtype=dtype)
        model.to(device).eval()
    except Exception as error:
        channel.fail(protocol.hf_load_failure(args.model, error))
    identity = f"{args.model} (transformers {transformers.__version__}, language={args.language}, greedy, {args.dtype}"
    identity += f", {args.chunk_seconds:g} s pieces)" if args.long_form == "chunks" else ")"

    generate_options = {"task": "transcribe", "num_beams": 1, "do_sample": False}
    if args.language.lower() != "auto":
        generate_options["language"] = args.language.lower()

    def transcribe_pieces(samples):
        step = max(1, int(args.chunk_seconds * RATE))
        texts = []
        for start in range(0, samples.size, step):
            features = processor.feature_extractor(samples[start:start + step], sampling_rate=RATE, return_tensors="pt")
            with torch.no_grad():
                ids = model.generate(features.input_features.to(device, dtype), **generate_options)
            texts.append(processor.batch_decode(ids, skip_special_tokens=True)[0].strip())
        return {"text": " ".join(t for t in texts if t)}

    def answer(request):
        samples = protocol.read_wav(protocol.first_audio(request), RATE)
        if args.long_form == "chunks":
            return transcribe_pieces(samples)
        extractor = processor.feature_extractor
        long_clip = samples.size > 30 * RATE and args.long_form == "sequential"
        with torch.no_grad():
            if long_clip:
                features = extractor(samples, sampling_rate=RATE, return_tensors="pt", truncation=False,
                                     padding="longest", return_attention_mask=True)
                ids = model.generate(features.input_features.to(device, dtype),
                                     attention_mask=features.attention_mask.to(device),
                                     return_timestamps=True, **generate_options)
            else:
                features = extractor(samples, sampling_rate=RATE, return_tensors="pt")
                ids = model.generate(features.input_features.to(device, dtype), **generate_options)
        if not torch.is_tensor(ids):
            ids = ids["sequences"]
        text = processor.batch_decode(ids, skip_special_tokens=True)[0]
        return {"text": text.strip()}

    return identity, answer


if __name__ == "__main__":
    main()
