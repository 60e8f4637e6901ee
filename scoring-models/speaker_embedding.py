#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): speaker embeddings for speaker similarity (SIM).

The model of Seed-TTS-Eval's SIM, written anew here: a self-supervised speech model from
torchaudio (the frontend), a learnable softmax-weighted sum of all its hidden states, instance
normalization, and an ECAPA-TDNN head (Desplanques et al., Interspeech 2020) laid out as
UniSpeech's downstreams/speaker_verification ECAPA_TDNN_SMALL: a Conv1d(k=5) stem, three SE-Res2
blocks (dilations 2, 3, 4, Res2 scale 8, squeeze-excitation bottleneck 128, each conv followed by
ReLU then batch norm), the three block outputs concatenated and projected to 1536 channels,
attentive statistics pooling (tanh attention, 128 channels), batch norm, and a linear layer to a
256-dimensional embedding (UniSpeech's emb_dim; the ECAPA paper used 192). Every audio request
is answered with {"embedding": path}: a 1 x 256 float32 .npy, not length-normalized (aeval's
speaker_similarity takes the cosine). Audio comes at 16 kHz (input_sample_rate: 16000).

  --frontend    wavlm_large (Seed-TTS-Eval's; needs torchaudio >= 2.0), wavlm_base_plus,
                hubert_large, hubert_base, wav2vec2_large, wav2vec2_large_lv60k, wav2vec2_base
                (hubert_base / wav2vec2_base are the smallest: the plumbing test uses hubert_base)
  --checkpoint  a state dict of the whole model in this script's layout (below); default
                $SPEAKER_EMBEDDING_CHECKPOINT, else
                ${XDG_CACHE_HOME:-~/.cache}/aeval/scoring-models/speaker_embedding/<frontend>_ecapa.pt
  --normalize-waveform  auto (default: per frontend, as its pre-training did: yes for wavlm_large,
                hubert_large, wav2vec2_large_lv60k), yes, no: zero-mean unit-variance per clip
  --channels / --embedding-dim  the head's width (512) and output size (256)
  --device      auto (cuda when available), cpu, cuda, cuda:N

Hidden states, as s3prl's upstream "hidden_states" (what UniSpeech's model weights): the input of
every transformer layer (after the positional convolution, and the encoder's layer norm for
post-norm models) and the encoder's output (the final layer norm applied for pre-norm models):
layers + 1 tensors.

Checkpoint layout (torch.save of a dict of tensors; a {"model": ...} or {"state_dict": ...}
wrapper is unwrapped):
  frontend.*       the torchaudio model's state_dict() (torchaudio.models.<factory>() names; note
                   that bundle.get_model() in torchaudio >= 2.0 wraps it, prefixing "model.")
  layer_weights    (layers + 1,) logits of the hidden-state weights (softmax taken here)
  head.*           the ECAPA-TDNN head (stem, blocks.N.{reduce,res2,expand,se}, aggregate, pool,
                   pool_norm, embed)

Converter note: UniSpeech's wavlm_large_finetune.pth (Seed-TTS-Eval's checkpoint). It is a dict
whose "model" entry is UniSpeech's ECAPA_TDNN state dict, in other names; this script refuses it
as it is (one line saying so) and must be given a converted file. The head's names map one to one,
from reading UniSpeech's models/ecapa_tdnn.py:
  feature_weight                              -> layer_weights
  layer1.conv.* / layer1.bn.*                 -> head.stem.conv.* / head.stem.norm.*
  layer{2,3,4}.Conv1dReluBn1.{conv,bn}.*      -> head.blocks.{0,1,2}.reduce.{conv,norm}.*
  layer{k}.Res2Conv1dReluBn.{convs,bns}.j.*   -> head.blocks.{k-2}.res2.{convs,norms}.j.*
  layer{k}.Conv1dReluBn2.{conv,bn}.*          -> head.blocks.{k-2}.expand.{conv,norm}.*
  layer{k}.SE_Connect.{linear1,linear2}.*     -> head.blocks.{k-2}.se.{squeeze,excite}.*
  conv.* / pooling.linear1.* / pooling.linear2.* / bn.* / linear.*
                                              -> head.aggregate.* / head.pool.attend.* /
                                                 head.pool.score.* / head.pool_norm.* / head.embed.*
The frontend keys (feature_extract.model.*) use Microsoft's original WavLM names (fairseq style:
encoder.layers.N.self_attn.{q,k,v,out}_proj, relative_attention_bias, grep_linear, grep_a, fc1,
fc2, ...), which torchaudio's wavlm_large names differently (q, k, v stacked in
attention.attention.in_proj_weight, rel_attn_embed, gru_rel_pos_linear, gru_rel_pos_const,
feed_forward.*): one route is transformers' WavLM conversion into WavLMModel, then
torchaudio.models.wav2vec2.utils.import_huggingface_model(...).state_dict() under "frontend.".
UniSpeech loads the file with strict=False on top of s3prl's pre-trained WavLM-Large, so where the
file lacks frontend keys the pre-trained WavLM-Large weights are the frontend.
What is verified here: the protocol, the shapes (1 x 256 float32, finite) and that one clip gives
one embedding, with random weights on hubert_base (plumbing_test.py). Not verified: the key
mapping above against the real file, whether that file holds fine-tuned frontend weights, and any
embedding or SIM value against UniSpeech's code; aeval's resampling to 16 kHz also differs from
Seed-TTS-Eval's (librosa load + torchaudio Resample).

Expected failures (torch/torchaudio missing or too old for the frontend, no checkpoint, a
checkpoint of another layout) end the process with status 2 and one line on stderr starting
"speaker_embedding.py:". The protocol plumbing (replies, that line, reading WAV requests, writing
the .npy) is process_protocol.py's, beside this script.
"""
import argparse
import inspect
import os

import process_protocol as protocol

RATE = 16000

# frontend -> (torchaudio.models factory, normalize the waveform by default)
FRONTENDS = {
    "wavlm_large": ("wavlm_large", True),
    "wavlm_base_plus": ("wavlm_base", False),
    "hubert_large": ("hubert_large", True),
    "hubert_base": ("hubert_base", False),
    "wav2vec2_large": ("wav2vec2_large", False),
    "wav2vec2_large_lv60k": ("wav2vec2_large_lv60k", True),
    "wav2vec2_base": ("wav2vec2_base", False),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frontend", default="wavlm_large", choices=sorted(FRONTENDS))
    parser.add_argument("--checkpoint", default=None, help="state dict of the whole model (see the docstring)")
    parser.add_argument("--normalize-waveform", default="auto", choices=["auto", "yes", "no"])
    parser.add_argument("--channels", type=int, default=512)
    parser.add_argument("--embedding-dim", type=int, default=256)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def model_classes(torch):
    """The model's modules, defined once torch is imported (the script starts without it)."""
    nn = torch.nn

    class ConvReluNorm(nn.Module):
        """Conv1d, then ReLU, then batch norm (the order UniSpeech's ECAPA-TDNN uses)."""

        def __init__(self, cin, cout, kernel=1, dilation=1):
            super().__init__()
            self.conv = nn.Conv1d(cin, cout, kernel, dilation=dilation, padding=dilation * (kernel - 1) // 2)
            self.norm = nn.BatchNorm1d(cout)

        def forward(self, x):
            return self.norm(torch.relu(self.conv(x)))

    class Res2(nn.Module):
        """Res2Net-style multi-scale conv: the channels cut into `scale` groups; group i (but the
        last) goes through a dilated conv after adding group i-1's output; the last group passes."""

        def __init__(self, channels, scale, kernel, dilation):
            super().__init__()
            self.width = channels // scale
            pad = dilation * (kernel - 1) // 2
            self.convs = nn.ModuleList(nn.Conv1d(self.width, self.width, kernel, dilation=dilation, padding=pad)
                                       for _ in range(scale - 1))
            self.norms = nn.ModuleList(nn.BatchNorm1d(self.width) for _ in range(scale - 1))

        def forward(self, x):
            groups = torch.split(x, self.width, dim=1)
            outputs, previous = [], None
            for group, conv, norm in zip(groups, self.convs, self.norms):
                previous = norm(torch.relu(conv(group if previous is None else group + previous)))
                outputs.append(previous)
            outputs.append(groups[-1])
            return torch.cat(outputs, dim=1)

    class SqueezeExcite(nn.Module):
        def __init__(self, channels, bottleneck):
            super().__init__()
            self.squeeze = nn.Linear(channels, bottleneck)
            self.excite = nn.Linear(bottleneck, channels)

        def forward(self, x):
            gate = torch.sigmoid(self.excite(torch.relu(self.squeeze(x.mean(dim=2)))))
            return x * gate.unsqueeze(2)

    class SERes2Block(nn.Module):
        def __init__(self, channels, dilation, scale=8, bottleneck=128):
            super().__init__()
            self.reduce = ConvReluNorm(channels, channels, 1)
            self.res2 = Res2(channels, scale, 3, dilation)
            self.expand = ConvReluNorm(channels, channels, 1)
            self.se = SqueezeExcite(channels, bottleneck)

        def forward(self, x):
            return x + self.se(self.expand(self.res2(self.reduce(x))))

    class AttentiveStatsPool(nn.Module):
        """Attention weights per channel and frame; the weighted mean and standard deviation."""

        def __init__(self, channels, attention):
            super().__init__()
            self.attend = nn.Conv1d(channels, attention, 1)
            self.score = nn.Conv1d(attention, channels, 1)

        def forward(self, x):
            weights = torch.softmax(self.score(torch.tanh(self.attend(x))), dim=2)
            mean = (weights * x).sum(dim=2)
            variance = (weights * x * x).sum(dim=2) - mean * mean
            return torch.cat([mean, variance.clamp(min=1e-9).sqrt()], dim=1)

    class EcapaHead(nn.Module):
        def __init__(self, feat_dim, channels=512, embedding_dim=256):
            super().__init__()
            self.stem = ConvReluNorm(feat_dim, channels, 5)
            self.blocks = nn.ModuleList(SERes2Block(channels, d) for d in (2, 3, 4))
            self.aggregate = nn.Conv1d(3 * channels, 1536, 1)
            self.pool = AttentiveStatsPool(1536, 128)
            self.pool_norm = nn.BatchNorm1d(2 * 1536)
            self.embed = nn.Linear(2 * 1536, embedding_dim)

        def forward(self, x):  # (batch, feat_dim, frames)
            x = self.stem(x)
            outputs = []
            for block in self.blocks:
                x = block(x)
                outputs.append(x)
            x = torch.relu(self.aggregate(torch.cat(outputs, dim=1)))
            return self.embed(self.pool_norm(self.pool(x)))

    class SpeakerEmbedder(nn.Module):
        def __init__(self, frontend, channels=512, embedding_dim=256):
            super().__init__()
            self.frontend = frontend
            transformer = frontend.encoder.transformer
            self.layer_weights = nn.Parameter(torch.zeros(len(transformer.layers) + 1))
            feat_dim = frontend.encoder.feature_projection.projection.out_features
            self.head = EcapaHead(feat_dim, channels, embedding_dim)
            first = transformer.layers[0]
            self._position_bias = "position_bias" in inspect.signature(first.forward).parameters

        def hidden_states(self, wave):
            features, _ = self.frontend.feature_extractor(wave, None)
            x = self.frontend.encoder.feature_projection(features)
            transformer = self.frontend.encoder.transformer
            x = x + transformer.pos_conv_embed(x)
            post_norm = transformer.layer_norm_first  # torchaudio's flag: the norm comes before the layers
            if post_norm:
                x = transformer.layer_norm(x)
            states, bias = [x], None
            for layer in transformer.layers:
                if self._position_bias:  # WavLM: the relative position bias is passed on
                    x, bias = layer(x, None, position_bias=bias)
                else:
                    x = layer(x, None)
                states.append(x)
            if not post_norm:
                states[-1] = transformer.layer_norm(states[-1])
            return states

        def forward(self, wave):  # (batch, samples)
            states = torch.stack(self.hidden_states(wave), dim=0)
            weights = torch.softmax(self.layer_weights, dim=0).view(-1, 1, 1, 1)
            x = (weights * states).sum(dim=0).transpose(1, 2) + 1e-6
            x = torch.nn.functional.instance_norm(x, eps=1e-5)
            return self.head(x)

    return SpeakerEmbedder


def build_model(frontend_name, channels=512, embedding_dim=256):
    """The model with freshly initialized weights (used by plumbing_test.py for a random checkpoint)."""
    import torch
    import torchaudio

    factory_name = FRONTENDS[frontend_name][0]
    factory = getattr(torchaudio.models, factory_name, None)
    if factory is None:
        raise LookupError(f"torchaudio {torchaudio.__version__} has no models.{factory_name} (wavlm needs "
                          f"torchaudio >= 2.0)")
    return model_classes(torch)(factory(), channels, embedding_dim).eval()


def default_checkpoint(frontend):
    if os.environ.get("SPEAKER_EMBEDDING_CHECKPOINT"):
        return os.environ["SPEAKER_EMBEDDING_CHECKPOINT"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "aeval", "scoring-models", "speaker_embedding", f"{frontend}_ecapa.pt")


def read_state_dict(torch, path):
    try:
        blob = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:  # a checkpoint with more than tensors in it (e.g. training arguments)
        blob = torch.load(path, map_location="cpu", weights_only=False)
    for _ in range(2):
        if isinstance(blob, dict) and not all(torch.is_tensor(v) for v in blob.values()):
            blob = blob.get("state_dict", blob.get("model", blob))
    if not isinstance(blob, dict) or not all(torch.is_tensor(v) for v in blob.values()):
        raise ValueError("not a state dict of tensors")
    return blob


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy as np
    import torch
    import torchaudio

    factory_name = FRONTENDS[args.frontend][0]
    if getattr(torchaudio.models, factory_name, None) is None:
        channel.fail(f"torchaudio {torchaudio.__version__} has no models.{factory_name} for --frontend "
                     f"{args.frontend} (WavLM needs torchaudio >= 2.0): install the pinned packages with "
                     f"`pip install -r speaker_embedding.requirements.txt`, or choose another --frontend")
    checkpoint = args.checkpoint or default_checkpoint(args.frontend)
    if not os.path.isfile(checkpoint):
        channel.fail(f"no checkpoint at {checkpoint}: pass --checkpoint PATH (a state dict of this script's "
                     f"model; its docstring says how UniSpeech's wavlm_large_finetune.pth maps to it) or set "
                     f"SPEAKER_EMBEDDING_CHECKPOINT")
    try:
        state = read_state_dict(torch, checkpoint)
    except Exception as error:
        channel.fail(f"cannot read the checkpoint {checkpoint}: {protocol.describe(error, 200)}")
    if "feature_weight" in state or any(k.startswith(("feature_extract.", "layer1.")) for k in state):
        channel.fail(f"{checkpoint} is in UniSpeech's layout (feature_weight, layer1.*, feature_extract.*): "
                     f"convert it to this script's layout first (frontend.*, layer_weights, head.*; see the "
                     f"docstring of {channel.script}, whose mapping is not verified against the real file)")
    model = build_model(args.frontend, args.channels, args.embedding_dim)
    try:
        result = model.load_state_dict(state, strict=False)
    except RuntimeError as error:
        channel.fail(f"the checkpoint {checkpoint} does not fit --frontend {args.frontend}: "
                     f"{protocol.describe(error, 200)}")
    if result.missing_keys or result.unexpected_keys:
        channel.fail(f"the checkpoint {checkpoint} does not fit --frontend {args.frontend}: "
                     f"{len(result.missing_keys)} keys missing (e.g. {result.missing_keys[:3]}), "
                     f"{len(result.unexpected_keys)} unexpected (e.g. {result.unexpected_keys[:3]})")
    device = protocol.to_device(torch, model, args.device)
    normalize = FRONTENDS[args.frontend][1] if args.normalize_waveform == "auto" else args.normalize_waveform == "yes"
    identity = (f"ecapa-tdnn on {args.frontend} ({os.path.basename(checkpoint)}, torchaudio "
                f"{torchaudio.__version__}, {args.embedding_dim}-d)")

    def answer(request):
        path, samples, destination = protocol.audio_for_embedding(request, RATE)
        if samples.size < 400:
            raise ValueError(f"{path}: {samples.size} samples, the frontend needs at least 400 (25 ms)")
        wave_ = torch.from_numpy(samples).unsqueeze(0).to(device)
        if normalize:
            wave_ = torch.nn.functional.layer_norm(wave_, wave_.shape[-1:])
        with torch.no_grad():
            embedding = model(wave_).float().cpu().numpy()
        if not np.isfinite(embedding).all():
            raise ValueError("the embedding has non-finite values")
        return protocol.save_embedding(destination, embedding)

    return identity, answer


if __name__ == "__main__":
    main()
