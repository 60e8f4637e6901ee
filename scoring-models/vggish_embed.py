#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): VGGish frame embeddings for the Frechet audio distance.

Answers every audio request with {"embedding": path}: a frames x 128 float32 .npy, one row per
0.96 s of audio (non-overlapping examples of 96 log-mel frames), as fadtk's "vggish" model computes
them. Audio comes at 16 kHz (input_sample_rate: 16000), read as int16 / 32768.

  --repo        torch.hub repository (default harritaylor/torchvggish, as fadtk loads it: its
                default branch, not a pinned commit), or a local clone with --source local
  --source      github (default) or local
  --pca         apply torchvggish's PCA + 8-bit quantization postprocessing (off, as fadtk)
  --activation  keep the final ReLU of the embedding layers (off: fadtk removes it)
  --min-seconds zero-pad shorter clips to this length (default 1.0, as fadtk's min_len), since a
                clip under 0.96 s has no example
  --device      auto (cuda when available), cpu, cuda, cuda:N

The weights (torchvggish's release vggish-10086976.pth, ported from Google's TensorFlow VGGish,
Apache-2.0) are cached by torch.hub under $TORCH_HOME/hub: once there, the script runs offline.
fadtk stores embeddings as float16; this script answers float32.

Expected failures (torch, resampy or soundfile missing, repository or weights neither cached nor
downloadable) end the process with status 2 and one line on stderr starting "vggish_embed.py:".
process_protocol.py holds the protocol plumbing (replies, that line, reading WAV, writing the .npy)
and the --repo/--source options.
"""
import argparse

import process_protocol as protocol

RATE = 16000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    protocol.add_torch_hub_options(parser, "harritaylor/torchvggish")
    parser.add_argument("--pca", action="store_true", help="PCA + quantization postprocessing (off as fadtk)")
    parser.add_argument("--activation", action="store_true", help="keep the final ReLU (fadtk removes it)")
    parser.add_argument("--min-seconds", type=float, default=1.0)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy as np
    import torch
    import resampy  # noqa: F401  (torchvggish's hubconf depends on it)
    import soundfile  # noqa: F401  (likewise)

    try:
        model = torch.hub.load(args.repo, "vggish", source=args.source, trust_repo=True)
    except Exception as error:
        channel.fail(protocol.torch_hub_failure(torch, "vggish", args.repo, "torchvggish", error))
    device = protocol.pick_device(torch, args.device)
    model.postprocess = args.pca
    if not args.activation:
        model.embeddings = torch.nn.Sequential(*list(model.embeddings.children())[:-1])
    if not hasattr(model, "device"):
        device = "cpu"  # older torchvggish keeps its input on the CPU
    else:
        model.device = torch.device(device)
    model.to(device).eval()
    identity = f"vggish ({args.repo}, postprocess={args.pca}, final ReLU={args.activation}, torch {torch.__version__})"

    def answer(request):
        path, samples, destination = protocol.audio_for_embedding(request, RATE)
        samples = samples.astype(np.float64)
        shortfall = int(np.ceil(args.min_seconds * RATE)) - samples.size
        if shortfall > 0:
            samples = np.pad(samples, (0, shortfall))
        with torch.no_grad():
            rows = model.forward(samples, RATE)
        rows = rows.detach().float().cpu().numpy().reshape(-1, 128)
        if rows.shape[0] == 0:
            raise ValueError(f"{path}: too short for one 0.96 s VGGish example")
        return protocol.save_embedding(destination, rows)

    return identity, answer


if __name__ == "__main__":
    main()
