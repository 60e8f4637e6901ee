#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): Whisper through the openai-whisper package, as CV3-Eval
transcribes (UltraEval-Audio's CV3WhisperModel, audio_evals/lib/whisper/cv3.py). Answers every audio request
with {"text": transcript}: whisper.load_model(--model), then model.transcribe(audio, language=--language) with
the package's defaults (temperatures 0, 0.2, ..., 1.0 as fallbacks, greedy at 0, each window conditioned on the
text before it; fp16 on CUDA), the text stripped.

  --model     a name load_model knows (large-v3, UEA's) or a checkpoint file
  --language  the language forced (en, ja, ko, de, ...), as UEA's evaluator passes it
  --device    auto (cuda when available), cpu, cuda, cuda:N
Audio comes at 16 kHz (input_sample_rate: 16000), as the float32 array transcribe() takes for 16 kHz audio;
UEA hands it the file, which the package decodes with ffmpeg at 16 kHz (another resampler than aeval's).
Expected failures (the package missing, weights neither cached nor downloadable) end the process with status 2
and one line on stderr starting "openai_whisper_asr.py:".
"""
import argparse

import process_protocol as protocol

RATE = 16000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="large-v3", help="a load_model name or a checkpoint file")
    parser.add_argument("--language", required=True, help="the language forced: en, ja, ko, de, ...")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    import whisper

    device = protocol.pick_device(torch, args.device)
    try:
        model = whisper.load_model(args.model, device=device)
    except Exception as error:
        channel.fail(f"cannot load Whisper {args.model} (no network or nothing cached under ~/.cache/whisper): "
                     f"{protocol.describe(error, 200)}: run once with network access, or pass --model "
                     f"/path/to/a/checkpoint.pt")
    model.eval()

    def answer(request):
        samples = protocol.read_wav(protocol.first_audio(request), RATE)
        return {"text": model.transcribe(samples, language=args.language)["text"].strip()}

    return f"openai-whisper {args.model} (language {args.language})", answer


if __name__ == "__main__":
    main()
