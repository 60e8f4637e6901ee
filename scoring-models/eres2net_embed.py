#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): 3D-Speaker's ERes2Net speaker embeddings, the speaker
similarity CV3-Eval scores (UltraEval-Audio's CV3SpeakerSim, audio_evals/lib/cv3_speaker_sim/speaker_sim.py).

The network and its features are 3D-Speaker's own code as UltraEval-Audio vendors it: speakerlab's ERes2Net
(feat_dim 80, embedding_size 192: UEA's settings for damo/speech_eres2net_sv_en_voxceleb_16k) on speakerlab's
FBank (80 Kaldi mel bins at 16 kHz, no dither, mean-normalized over time). Every audio request is answered
with {"embedding": path}: a 1 x 192 float32 .npy; aeval's evaluator takes the cosine, as UEA's script does
with torch's cosine_similarity. Audio comes at 16 kHz (input_sample_rate: 16000).

  --speakerlab  the folder holding 3D-Speaker's `speakerlab` package: default
                $AEVAL_UEA_DIR/audio_evals/lib/cv3_speaker_sim/3D-Speaker, else the copy in aeval's cache of
                UltraEval-Audio's pinned commit (`aeval fetch uea` unpacks it)
  --checkpoint  the weights, pretrained_eres2net.ckpt of ModelScope's damo/speech_eres2net_sv_en_voxceleb_16k
                at revision v1.0.2: default ${XDG_CACHE_HOME:-~/.cache}/aeval/scoring-models/eres2net/, where it
                is downloaded from ModelScope on first use
  --device      auto (cuda when available), cpu, cuda, cuda:N
Where this differs from UEA's script: UEA hands the network the answer's file (its first channel, resampled by
torchaudio); aeval hands it 16 kHz mono audio (channels averaged, aeval's resampler).
Expected failures (a library, speakerlab or the weights missing) end the process with status 2 and one line on
stderr starting "eres2net_embed.py:".
"""
import argparse
import glob
import os
import sys
import urllib.request

import process_protocol as protocol

RATE = 16000
MODEL_ID, REVISION, FILE = "damo/speech_eres2net_sv_en_voxceleb_16k", "v1.0.2", "pretrained_eres2net.ckpt"
SPEAKERLAB_IN_UEA = os.path.join("audio_evals", "lib", "cv3_speaker_sim", "3D-Speaker")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--speakerlab", default="", help="folder holding 3D-Speaker's speakerlab package")
    parser.add_argument("--checkpoint", default="", help="the network's weights (pretrained_eres2net.ckpt)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def cache_dir():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "aeval")


def speakerlab_folder(given):
    """The 3D-Speaker folder: given, in $AEVAL_UEA_DIR, or in aeval's cache of UEA's pinned commit."""
    if given:
        return [given]
    candidates = []
    if os.environ.get("AEVAL_UEA_DIR"):
        candidates.append(os.path.join(os.environ["AEVAL_UEA_DIR"], SPEAKERLAB_IN_UEA))
    candidates += sorted(glob.glob(os.path.join(cache_dir(), "uea", "9b69da6", "unpacked", "*", SPEAKERLAB_IN_UEA)))
    return candidates


def download(channel, destination):
    """ModelScope's file of the pinned revision, written under a .part name and renamed when whole."""
    url = (f"https://www.modelscope.cn/api/v1/models/{MODEL_ID}/repo?Revision={REVISION}&FilePath={FILE}")
    partial = destination + ".part"
    try:
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        with urllib.request.urlopen(url, timeout=60) as response, open(partial, "wb") as out:
            while True:
                block = response.read(1 << 20)
                if not block:
                    break
                out.write(block)
        os.replace(partial, destination)
    except Exception as error:
        if os.path.exists(partial):
            os.remove(partial)
        channel.fail(f"cannot download {FILE} of {MODEL_ID} ({REVISION}) from {url} (no network?): "
                     f"{protocol.describe(error, 200)}: run once with network access (it is cached at "
                     f"{destination}), or pass --checkpoint /path/to/{FILE}")


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy as np
    import torch

    folders = [f for f in speakerlab_folder(args.speakerlab) if os.path.isdir(os.path.join(f, "speakerlab"))]
    if not folders:
        where = args.speakerlab or f"{SPEAKERLAB_IN_UEA} of $AEVAL_UEA_DIR or of aeval's UltraEval-Audio cache"
        channel.fail(f"3D-Speaker's speakerlab is not in {where}: run `aeval fetch uea` (UltraEval-Audio vendors "
                     f"it), or pass --speakerlab FOLDER")
    sys.path.insert(0, folders[0])
    from speakerlab.models.eres2net.ERes2Net import ERes2Net
    from speakerlab.process.processor import FBank

    checkpoint = args.checkpoint or os.path.join(cache_dir(), "scoring-models", "eres2net", FILE)
    if not os.path.isfile(checkpoint):
        if args.checkpoint:
            channel.fail(f"no checkpoint at {checkpoint}: pass --checkpoint PATH to {FILE}")
        download(channel, checkpoint)
    model = ERes2Net(feat_dim=80, embedding_size=192)
    try:
        model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    except Exception as error:
        channel.fail(f"cannot load {checkpoint} into ERes2Net: {protocol.describe(error, 200)}")
    device = protocol.to_device(torch, model, args.device)
    features = FBank(80, sample_rate=RATE, mean_nor=True)

    def answer(request):
        path, samples, destination = protocol.audio_for_embedding(request, RATE)
        feat = features(torch.from_numpy(samples).unsqueeze(0)).unsqueeze(0).to(device)
        with torch.no_grad():
            embedding = model(feat).detach().float().cpu().numpy()
        if not np.isfinite(embedding).all():
            raise ValueError("the embedding has non-finite values")
        return protocol.save_embedding(destination, embedding)

    return f"3D-Speaker ERes2Net ({MODEL_ID} {REVISION}, speakerlab from {folders[0]})", answer


if __name__ == "__main__":
    main()
