#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): AST frame embeddings for AudioBERTScore (seed 001).

Answers every audio request with {"embedding": path}: a frames x 768 float32 .npy of the Audio
Spectrogram Transformer's patch tokens at one layer, as lourson1091/audiobertscore (ddccd17)
takes them for model_type "ast". Audio comes at 16 kHz (input_sample_rate: 16000).

  --model  Hugging Face id or local folder (default MIT/ast-finetuned-audioset-10-10-0.4593, the
           transformers port of the reference's audioset_10_10_0.4593.pth)
  --layer  1 to 13, numbered as the reference numbers them (default 13): layer k <= 12 is the
           output of transformer block k (transformers' hidden_states[k]); layer 13 is the last
           block's output after the final layer norm (transformers' last_hidden_state, not
           hidden_states[12]). hidden_states[0], the embeddings, is no layer of the reference.
  --layer-norm-eps  the layer norms' epsilon (default 1e-6, that of the reference's timm 0.4.5
           DeiT; the transformers config says 1e-12; "config" keeps the config's)
  --device auto (cuda when available), cpu, cuda, cuda:N

What the reference does, and this script with it:
  * Features: torchaudio.compliance.kaldi.fbank of the 16 kHz waveform in [-1, 1) (htk_compat,
    use_energy off, hanning window, 128 mel bins, dither 0, 10 ms shift), cut or zero-padded to
    1024 frames (10.24 s: later audio is not seen), then (x + 4.2677393) / (2 * 4.5689974).
  * Tokens: the 1212 patch tokens (12 frequency x 101 time patches, stride 10) of the chosen
    layer; the first two tokens (CLS and distillation) are dropped, as the reference drops them.
    Nothing else is dropped: patches over the padding of a short clip stay, as in the reference,
    so every clip gives 1212 x 768. The rows are in the model's patch order (frequency-major).

Not verified here: values against the reference's own AST code (timm 0.4.5) with its .pth; the
mapping of layers and the feature pipeline follow from reading both implementations.

Expected failures (transformers or torchaudio missing, weights neither cached nor downloadable)
end the process with status 2 and one line on stderr starting "ast_frames.py:". The protocol
plumbing (replies, that line, reading WAV requests, writing the .npy) is process_protocol.py's.
"""
import argparse

import process_protocol as protocol

RATE = 16000
FBANK_MEAN = -4.2677393
FBANK_STD = 4.5689974


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="MIT/ast-finetuned-audioset-10-10-0.4593")
    parser.add_argument("--layer", type=int, default=13, help="1-13 as AudioBERTScore numbers them")
    parser.add_argument("--layer-norm-eps", default="1e-6", help='a number, or "config"')
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    args = parser.parse_args()
    if args.layer_norm_eps != "config":
        try:
            float(args.layer_norm_eps)
        except ValueError:
            parser.error("--layer-norm-eps takes a number or config")
    protocol.run(__file__, load, args)


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy  # noqa: F401  (protocol.read_wav needs it)
    import torch
    import torchaudio
    import transformers
    from transformers import ASTModel

    transformers.logging.set_verbosity_error()
    overrides = {} if args.layer_norm_eps == "config" else {"layer_norm_eps": float(args.layer_norm_eps)}
    try:
        model = ASTModel.from_pretrained(args.model, **overrides)
    except Exception as error:
        channel.fail(protocol.hf_load_failure(args.model, error))
    layers = model.config.num_hidden_layers
    if not 1 <= args.layer <= layers + 1:
        channel.fail(f"--layer {args.layer} is out of range: 1 to {layers + 1} for {args.model}")
    device = protocol.to_device(torch, model, args.device)
    identity = (f"{args.model} layer {args.layer} (transformers {transformers.__version__}, "
                f"layer_norm_eps {model.config.layer_norm_eps}, CLS/distillation tokens dropped)")
    config = model.config

    def answer(request):
        path, samples, destination = protocol.audio_for_embedding(request, RATE)
        if samples.size < 400:
            raise ValueError(f"{path}: {samples.size} samples, the filterbank needs at least 400 (25 ms)")
        fbank = torchaudio.compliance.kaldi.fbank(
            torch.from_numpy(samples).unsqueeze(0), htk_compat=True, sample_frequency=RATE, use_energy=False,
            window_type="hanning", num_mel_bins=config.num_mel_bins, dither=0.0, frame_shift=10)
        frames = config.max_length
        if fbank.shape[0] < frames:
            fbank = torch.nn.functional.pad(fbank, (0, 0, 0, frames - fbank.shape[0]))
        fbank = fbank[:frames]
        inputs = ((fbank - FBANK_MEAN) / (FBANK_STD * 2)).unsqueeze(0).to(device)
        with torch.no_grad():
            output = model(input_values=inputs, output_hidden_states=True)
        last = args.layer == config.num_hidden_layers + 1
        tokens = output.last_hidden_state if last else output.hidden_states[args.layer]
        rows = tokens[0, 2:].float().cpu().numpy()
        return protocol.save_embedding(destination, rows)

    return identity, answer


if __name__ == "__main__":
    main()
