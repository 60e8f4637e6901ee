#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): PANNs CNN14 clip embeddings for the Frechet audio distance.

CNN14 of "PANNs: Large-Scale Pretrained Audio Neural Networks" (Kong et al., IEEE/ACM TASLP 2020),
written anew here from the paper's architecture and the released checkpoints' layout. Every audio
request is answered with {"embedding": path}: a 1 x 2048 float32 .npy, PANNs' own `embedding`
output (the 2048 channels of the last conv block averaged over frequency, max + mean over time,
then fc1 and ReLU), the vector panns_inference's AudioTagging returns. Audio comes at the variant's
rate (the entry's input_sample_rate), read as int16 / 32768.

  --variant     cnn14-32k (default: Cnn14_mAP=0.431.pth, 32 kHz, window 1024, hop 320, 50-14000 Hz)
                or cnn14-16k (Cnn14_16k_mAP=0.438.pth, 16 kHz, window 512, hop 160, 50-8000 Hz);
                both 64 mel bands
  --checkpoint  a local copy of the variant's file; default: downloaded once from its Zenodo record
                into $TORCH_HOME/hub/checkpoints (torch.hub's download: a partial file never lands)
  --device      auto (cuda when available), cpu, cuda, cuda:N

The log-mel front end runs on the checkpoint's own tensors: the windowed DFT kernels of
torchlibrosa's STFT (spectrogram_extractor.stft.conv_{real,imag}, applied as a strided conv after
reflect-padding n_fft/2 on both sides) and its mel matrix (logmel_extractor.melW), then
10 log10(max(power, 1e-10)), as PANNs trained with. The checkpoint loads strictly: every key and
shape must match. Zenodo publishes no checksum this script could pin, so the strict load is the
check of the file. A clip shorter than 32 STFT frames (0.31 s) has no frame left after CNN14's five
2 x 2 poolings: it gets an error reply naming its length, not a padded embedding.

Expected failures (torch missing, weights neither given, cached nor downloadable, a file of another
layout) end the process with status 2 and one line on stderr starting "panns_embed.py:".
process_protocol.py holds the protocol plumbing (replies, that line, reading WAV, writing the .npy).
"""
import argparse
import os

import process_protocol as protocol

ZENODO = "https://zenodo.org/records"
# variant -> (sample rate, n_fft, hop, checkpoint file, its URL)
VARIANTS = {
    "cnn14-32k": (32000, 1024, 320, "Cnn14_mAP=0.431.pth", f"{ZENODO}/3987831/files/Cnn14_mAP%3D0.431.pth"),
    "cnn14-16k": (16000, 512, 160, "Cnn14_16k_mAP=0.438.pth", f"{ZENODO}/3987831/files/Cnn14_16k_mAP%3D0.438.pth"),
}
MEL_BINS, CLASSES, MIN_FRAMES = 64, 527, 32


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="cnn14-32k", choices=sorted(VARIANTS))
    parser.add_argument("--checkpoint", default=None, help="local copy of the variant's .pth")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def build_model(variant):
    """CNN14 with freshly initialized weights, its modules named as in PANNs' checkpoints
    (plumbing_test.py saves one with random weights)."""
    import torch
    nn, F = torch.nn, torch.nn.functional
    _, n_fft, hop, _, _ = VARIANTS[variant]
    bins = n_fft // 2 + 1

    class Stft(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_real = nn.Conv1d(1, bins, n_fft, stride=hop, bias=False)
            self.conv_imag = nn.Conv1d(1, bins, n_fft, stride=hop, bias=False)

    class Spectrogram(nn.Module):
        def __init__(self):
            super().__init__()
            self.stft = Stft()

        def forward(self, wave):  # (batch, samples) -> (batch, 1, frames, bins) power
            x = F.pad(wave[:, None, :], (n_fft // 2, n_fft // 2), mode="reflect")
            real, imag = self.stft.conv_real(x), self.stft.conv_imag(x)
            return (real ** 2 + imag ** 2).transpose(1, 2)[:, None, :, :]

    class LogMel(nn.Module):
        def __init__(self):
            super().__init__()
            self.melW = nn.Parameter(torch.rand(bins, MEL_BINS))

        def forward(self, power):
            return 10.0 * torch.log10(torch.clamp(torch.matmul(power, self.melW), min=1e-10))

    class ConvBlock(nn.Module):
        def __init__(self, cin, cout):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.bn2 = nn.BatchNorm2d(cout)

        def forward(self, x, pool):
            x = F.relu(self.bn1(self.conv1(x)))
            x = F.relu(self.bn2(self.conv2(x)))
            return F.avg_pool2d(x, kernel_size=pool)

    class Cnn14(nn.Module):
        def __init__(self):
            super().__init__()
            self.spectrogram_extractor = Spectrogram()
            self.logmel_extractor = LogMel()
            self.bn0 = nn.BatchNorm2d(MEL_BINS)
            widths = (1, 64, 128, 256, 512, 1024, 2048)
            for i in range(6):
                setattr(self, f"conv_block{i + 1}", ConvBlock(widths[i], widths[i + 1]))
            self.fc1 = nn.Linear(2048, 2048)
            self.fc_audioset = nn.Linear(2048, CLASSES)  # AudioSet tagging: loaded, not used here

        def forward(self, wave):  # (batch, samples) -> (batch, 2048)
            x = self.logmel_extractor(self.spectrogram_extractor(wave))
            x = self.bn0(x.transpose(1, 3)).transpose(1, 3)  # batch norm over the mel bands
            for i in range(6):
                x = getattr(self, f"conv_block{i + 1}")(x, (2, 2) if i < 5 else (1, 1))
            x = x.mean(dim=3)
            x = x.max(dim=2).values + x.mean(dim=2)
            return F.relu(self.fc1(x))

    return Cnn14().eval()


def fetch_checkpoint(torch, channel, variant):
    _, _, _, name, url = VARIANTS[variant]
    folder = os.path.join(torch.hub.get_dir(), "checkpoints")
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        try:
            os.makedirs(folder, exist_ok=True)
            torch.hub.download_url_to_file(url, path, progress=False)
        except Exception as error:
            channel.fail(f"cannot download {name} from {url} (no network?): {protocol.describe(error, 200)}: "
                         f"run once with network access (it is cached in {folder}), or pass --checkpoint "
                         f"/path/to/{name}")
    return path


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy as np
    import torch

    rate, _, hop, _, _ = VARIANTS[args.variant]
    checkpoint = args.checkpoint or fetch_checkpoint(torch, channel, args.variant)
    if not os.path.isfile(checkpoint):
        channel.fail(f"no checkpoint at {checkpoint}")
    model = build_model(args.variant)
    try:
        blob = torch.load(checkpoint, map_location="cpu")
        model.load_state_dict(blob.get("model", blob) if isinstance(blob, dict) else blob, strict=True)
    except Exception as error:
        channel.fail(f"the checkpoint {checkpoint} is not PANNs' {args.variant} (a strict load failed): "
                     f"{protocol.describe(error, 200)}")
    device = protocol.to_device(torch, model, args.device)
    identity = f"panns {args.variant} ({os.path.basename(checkpoint)}, embedding, torch {torch.__version__})"
    min_samples = (MIN_FRAMES - 1) * hop

    def answer(request):
        path, samples, destination = protocol.audio_for_embedding(request, rate)
        if samples.size < min_samples:
            raise ValueError(f"{path}: {samples.size / rate:.3f} s, CNN14 needs at least {min_samples / rate:.2f} s "
                             f"({MIN_FRAMES} frames)")
        with torch.no_grad():
            row = model(torch.from_numpy(samples)[None, :].to(device)).float().cpu().numpy()
        if not np.isfinite(row).all():
            raise ValueError(f"{path}: the embedding has non-finite values")
        return protocol.save_embedding(destination, row)

    return identity, answer


if __name__ == "__main__":
    main()
