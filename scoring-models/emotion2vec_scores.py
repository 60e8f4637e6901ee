#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): emotion2vec+ large's utterance emotion scores, as CV3-Eval's
emotion tasks recognize the emotion of generated speech (UltraEval-Audio's Emotion2Vec model,
audio_evals/lib/emotion2vec/main.py). Every audio request is answered with
{"scores": {"angry": ..., "disgusted": ..., "fearful": ..., "happy": ..., "neutral": ..., "other": ..., "sad": ...,
"surprised": ..., "unk": ...}}: ModelScope's emotion_recognition pipeline on the utterance (granularity
"utterance", no embedding), its scores named in UEA's label order.

  --model   the ModelScope model (default iic/emotion2vec_plus_large, UEA's)
  --device  auto (cuda when available), cpu, cuda, cuda:N
Audio comes at 16 kHz (input_sample_rate: 16000); UEA loads the file with librosa at 16 kHz (another resampler
than aeval's for audio at other rates).
Expected failures (a library missing, weights neither cached nor downloadable) end the process with status 2
and one line on stderr starting "emotion2vec_scores.py:".
"""
import argparse

import process_protocol as protocol

RATE = 16000
LABELS = ["angry", "disgusted", "fearful", "happy", "neutral", "other", "sad", "surprised", "unk"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="iic/emotion2vec_plus_large", help="the ModelScope model")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    from modelscope.pipelines import pipeline
    from modelscope.utils.constant import Tasks

    device = protocol.pick_device(torch, args.device)
    try:
        recognize = pipeline(task=Tasks.emotion_recognition, model=args.model, device=device)
    except Exception as error:
        channel.fail(f"cannot load {args.model} (no network or nothing cached in the ModelScope cache, "
                     f"MODELSCOPE_CACHE): {protocol.describe(error, 200)}: run once with network access")

    def answer(request):
        samples = protocol.read_wav(protocol.first_audio(request), RATE)
        scores = recognize(samples, granularity="utterance", extract_embedding=False)[0]["scores"]
        if len(scores) != len(LABELS):
            raise ValueError(f"{args.model} gave {len(scores)} scores, UEA names {len(LABELS)} emotions")
        return {"scores": {label: float(score) for label, score in zip(LABELS, scores)}}

    return f"emotion2vec ({args.model}, ModelScope emotion_recognition)", answer


if __name__ == "__main__":
    main()
