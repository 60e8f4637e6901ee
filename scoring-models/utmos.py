#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): UTMOS22 strong learner, as packaged by tarepan/SpeechMOS.

Answers every audio request with {"scores": {"mos": value}}: the predicted naturalness MOS
(1 to 5 scale) of the clip. Audio comes at 16 kHz (the entry's input_sample_rate: 16000),
16-bit mono WAV, scaled to [-1, 1) as int16 / 32768.

  --repo    torch.hub repository (default tarepan/SpeechMOS:v1.2.0), or a local clone with
            --source local
  --source  github (default) or local
  --device  auto (cuda when available), cpu, cuda, cuda:N

The model is `torch.hub.load(repo, "utmos22_strong", trust_repo=True)`, called as
`predictor(wave, 16000)` on one clip at a time (batch of one, so no padding enters the score).
Its weights (SpeechMOS' release utmos22_strong_step7459_v1.pt, converted from the official
sarulab-speech/UTMOS22 strong-learner checkpoint, MIT) are cached by torch.hub under
$TORCH_HOME/hub (default ~/.cache/torch/hub): once there, the script runs offline.

Expected failures (torch missing, repository or weights neither cached nor downloadable) end the
process with status 2 and one line on stderr starting "utmos.py:". The protocol plumbing (replies,
that line, reading WAV requests) and the --repo/--source options are process_protocol.py's.
"""
import argparse

import process_protocol as protocol

RATE = 16000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    protocol.add_torch_hub_options(parser, "tarepan/SpeechMOS:v1.2.0")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    import torchaudio  # noqa: F401  (SpeechMOS' hubconf depends on it)

    device = protocol.pick_device(torch, args.device)
    try:
        predictor = torch.hub.load(args.repo, "utmos22_strong", source=args.source, trust_repo=True)
        predictor.to(device).eval()
    except Exception as error:
        channel.fail(protocol.torch_hub_failure(torch, "utmos22_strong", args.repo, "SpeechMOS", error))
    identity = f"utmos22_strong ({args.repo}, torch {torch.__version__})"

    def answer(request):
        samples = protocol.read_wav(protocol.first_audio(request), RATE)
        wave_ = torch.from_numpy(samples).unsqueeze(0).to(device)
        with torch.no_grad():
            try:
                score = predictor(wave_, RATE)
            except TypeError:  # SpeechMOS before v1.1 took the wave alone, at 16 kHz
                score = predictor(wave_)
        value = float(score.reshape(-1)[0].item())
        if value != value:
            raise ValueError("the model returned NaN")
        return {"scores": {"mos": value}}

    return identity, answer


if __name__ == "__main__":
    main()
