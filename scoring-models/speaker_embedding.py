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
  --checkpoint  a state dict of the whole model, in this script's layout (below) or in UniSpeech's
                (converted on load); default $SPEAKER_EMBEDDING_CHECKPOINT, else
                ${XDG_CACHE_HOME:-~/.cache}/aeval/scoring-models/speaker_embedding/<frontend>_ecapa.pt,
                which for wavlm_large is made on first use: UniSpeech's wavlm_large_finetune.pth (the
                file Seed-TTS-Eval's README links, Google Drive id below) is downloaded with gdown,
                converted, and saved there; the downloaded file is then deleted
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

UniSpeech's layout (wavlm_large_finetune.pth and its siblings: a dict whose "model" entry is
UniSpeech's ECAPA_TDNN state dict, frontend included: a public re-implementation loads that file
onto the whole model with no key missing) is recognized by its names and converted on load:
  feature_weight                              -> layer_weights
  layer1.conv.* / layer1.bn.*                 -> head.stem.conv.* / head.stem.norm.*
  layer{2,3,4}.Conv1dReluBn1.{conv,bn}.*      -> head.blocks.{0,1,2}.reduce.{conv,norm}.*
  layer{k}.Res2Conv1dReluBn.{convs,bns}.j.*   -> head.blocks.{k-2}.res2.{convs,norms}.j.*
  layer{k}.Conv1dReluBn2.{conv,bn}.*          -> head.blocks.{k-2}.expand.{conv,norm}.*
  layer{k}.SE_Connect.{linear1,linear2}.*     -> head.blocks.{k-2}.se.{squeeze,excite}.*
  conv.* / pooling.linear1.* / pooling.linear2.* / bn.* / linear.*
                                              -> head.aggregate.* / head.pool.attend.* /
                                                 head.pool.score.* / head.pool_norm.* / head.embed.*
  feature_extract.model.<fairseq-style name>  -> frontend.<torchaudio name> (FRONTEND_NAMES below:
                                                 the names torchaudio's own fairseq import uses, plus
                                                 WavLM's relative_attention_bias, grep_linear, grep_a;
                                                 q/k/v_proj stacked into in_proj for torchaudio's WavLM)
  loss_calculator.* (the training loss's projection) and other names are dropped; the load is then
  strict about every key the model has.
What is verified here (plumbing_test.py, random weights on hubert_base): the protocol and shapes;
that the frontend names agree with torchaudio 0.13's fairseq import on every HuBERT key; that a
UniSpeech-layout file gives the same embeddings as the same weights in this script's layout; the
download's one-line failures. Not verified here (torchaudio 0.13 has no WavLM, and no network): the
WavLM-only names (relative bias, gates, stacked q/k/v) against the real file, and any embedding or
SIM value against UniSpeech's code; aeval's resampling to 16 kHz also differs from Seed-TTS-Eval's
(librosa load + torchaudio Resample).

Expected failures (torch/torchaudio/gdown missing or too old for the frontend, no checkpoint and
no download, a checkpoint of another layout) end the process with status 2 and one line on stderr
starting "speaker_embedding.py:". The protocol plumbing (replies, that line, reading WAV requests,
writing the .npy) is process_protocol.py's, beside this script.
"""
import argparse
import inspect
import os
import re

import process_protocol as protocol

RATE = 16000
# The official fine-tuned checkpoints (UniSpeech downstreams/speaker_verification), by frontend:
# Google Drive file id, file name. wavlm_large's is the one Seed-TTS-Eval's README links.
OFFICIAL = {"wavlm_large": ("1-aE1NfzpRCLxA4GUxX9ITI3F9LlbtEGP", "wavlm_large_finetune.pth")}

# fairseq/UniSpeech frontend names -> torchaudio's (full matches, tried in order).
FRONTEND_NAMES = [
    (r"feature_extractor\.conv_layers\.0\.2\.(weight|bias)", r"feature_extractor.conv_layers.0.layer_norm.\1"),
    (r"feature_extractor\.conv_layers\.(\d+)\.0\.(weight|bias)", r"feature_extractor.conv_layers.\1.conv.\2"),
    (r"feature_extractor\.conv_layers\.(\d+)\.2\.1\.(weight|bias)", r"feature_extractor.conv_layers.\1.layer_norm.\2"),
    (r"post_extract_proj\.(weight|bias)", r"encoder.feature_projection.projection.\1"),
    (r"layer_norm\.(weight|bias)", r"encoder.feature_projection.layer_norm.\1"),
    (r"encoder\.pos_conv\.0\.(bias|weight_g|weight_v)", r"encoder.transformer.pos_conv_embed.conv.\1"),
    (r"encoder\.layer_norm\.(weight|bias)", r"encoder.transformer.layer_norm.\1"),
    (r"encoder\.layers\.(\d+)\.self_attn\.((?:k|v|q|out)_proj\.(?:weight|bias))",
     r"encoder.transformer.layers.\1.attention.\2"),
    (r"encoder\.layers\.(\d+)\.self_attn\.relative_attention_bias\.weight",
     r"encoder.transformer.layers.\1.attention.rel_attn_embed.weight"),
    (r"encoder\.layers\.(\d+)\.self_attn\.grep_linear\.(weight|bias)",
     r"encoder.transformer.layers.\1.attention.gru_rel_pos_linear.\2"),
    (r"encoder\.layers\.(\d+)\.self_attn\.grep_a", r"encoder.transformer.layers.\1.attention.gru_rel_pos_const"),
    (r"encoder\.layers\.(\d+)\.self_attn_layer_norm\.(weight|bias)", r"encoder.transformer.layers.\1.layer_norm.\2"),
    (r"encoder\.layers\.(\d+)\.fc1\.(weight|bias)", r"encoder.transformer.layers.\1.feed_forward.intermediate_dense.\2"),
    (r"encoder\.layers\.(\d+)\.fc2\.(weight|bias)", r"encoder.transformer.layers.\1.feed_forward.output_dense.\2"),
    (r"encoder\.layers\.(\d+)\.final_layer_norm\.(weight|bias)", r"encoder.transformer.layers.\1.final_layer_norm.\2"),
]
# UniSpeech's ECAPA head names -> this script's.
HEAD_NAMES = [
    (r"feature_weight", "layer_weights"),
    (r"layer1\.conv\.(\w+)", r"head.stem.conv.\1"),
    (r"layer1\.bn\.(\w+)", r"head.stem.norm.\1"),
    (r"layer([234])\.Conv1dReluBn1\.conv\.(\w+)", r"head.blocks.<\1>.reduce.conv.\2"),
    (r"layer([234])\.Conv1dReluBn1\.bn\.(\w+)", r"head.blocks.<\1>.reduce.norm.\2"),
    (r"layer([234])\.Res2Conv1dReluBn\.convs\.(\d+)\.(\w+)", r"head.blocks.<\1>.res2.convs.\2.\3"),
    (r"layer([234])\.Res2Conv1dReluBn\.bns\.(\d+)\.(\w+)", r"head.blocks.<\1>.res2.norms.\2.\3"),
    (r"layer([234])\.Conv1dReluBn2\.conv\.(\w+)", r"head.blocks.<\1>.expand.conv.\2"),
    (r"layer([234])\.Conv1dReluBn2\.bn\.(\w+)", r"head.blocks.<\1>.expand.norm.\2"),
    (r"layer([234])\.SE_Connect\.linear1\.(\w+)", r"head.blocks.<\1>.se.squeeze.\2"),
    (r"layer([234])\.SE_Connect\.linear2\.(\w+)", r"head.blocks.<\1>.se.excite.\2"),
    (r"conv\.(\w+)", r"head.aggregate.\1"),
    (r"pooling\.linear1\.(\w+)", r"head.pool.attend.\1"),
    (r"pooling\.linear2\.(\w+)", r"head.pool.score.\1"),
    (r"bn\.(\w+)", r"head.pool_norm.\1"),
    (r"linear\.(\w+)", r"head.embed.\1"),
]

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


def rename(key, table):
    """The key under the first (pattern, replacement) of the table that matches it whole; None if none
    does. <k> in a replacement stands for the block index k - 2 (UniSpeech's layer2 is block 0)."""
    for pattern, replacement in table:
        match = re.fullmatch(pattern, key)
        if match:
            return re.sub(r"<(\d)>", lambda m: str(int(m[1]) - 2), match.expand(replacement))
    return None


def is_unispeech_layout(state):
    return "feature_weight" in state or any(k.startswith(("feature_extract.", "layer1.")) for k in state)


def from_unispeech(torch, state, target_keys):
    """A UniSpeech ECAPA_TDNN state dict in this script's names (the docstring's table), fitted to the
    target model's keys; names of neither table (the training loss's projection) are dropped."""
    out = {}
    for key, value in state.items():
        if key.startswith("feature_extract.model."):
            name = rename(key[len("feature_extract.model."):], FRONTEND_NAMES)
            name = name and "frontend." + name
        else:
            name = rename(key, HEAD_NAMES)
        if name is not None:
            out[name] = value
    # torchaudio's WavLM attention is an nn.MultiheadAttention: q, k, v stacked in that order
    for key in [k for k in out if k.endswith(".attention.q_proj.weight")]:
        layer = key[: -len("q_proj.weight")]
        if layer + "attention.in_proj_weight" in target_keys:
            for kind in ("weight", "bias"):
                out[f"{layer}attention.in_proj_{kind}"] = torch.cat([out.pop(f"{layer}{p}_proj.{kind}") for p in "qkv"])
                out[f"{layer}attention.out_proj.{kind}"] = out.pop(f"{layer}out_proj.{kind}")
    # the positional conv's weight norm, saved as weight_g / weight_v, is a parametrization in newer torch
    conv = "frontend.encoder.transformer.pos_conv_embed.conv."
    for old, new in (("weight_g", "parametrizations.weight.original0"), ("weight_v", "parametrizations.weight.original1")):
        if conv + old in out and conv + old not in target_keys and conv + new in target_keys:
            out[conv + new] = out.pop(conv + old)
    return out


def download_official(channel, frontend, folder):
    """UniSpeech's fine-tuned checkpoint for the frontend, fetched from Google Drive with gdown into
    folder (under a .part name, so an interrupted download is never taken for the file); its path."""
    import gdown

    file_id, name = OFFICIAL[frontend]
    partial = os.path.join(folder, name + ".part")
    try:
        os.makedirs(folder, exist_ok=True)
        fetched = gdown.download(id=file_id, output=partial, quiet=True)
    except Exception as error:
        fetched, reason = None, protocol.describe(error, 200)
    else:
        reason = "gdown fetched nothing"
    if not fetched or not os.path.isfile(partial):
        if os.path.exists(partial):  # what an interrupted download left
            os.remove(partial)
        channel.fail(f"cannot download UniSpeech's {name} (Google Drive file {file_id}; no network?): {reason}: "
                     f"run once with network access (it is converted and cached in {folder}), or pass "
                     f"--checkpoint /path/to/{name}")
    return partial


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
    downloaded = None
    if not os.path.isfile(checkpoint):
        if args.checkpoint or args.frontend not in OFFICIAL or os.environ.get("SPEAKER_EMBEDDING_CHECKPOINT"):
            channel.fail(f"no checkpoint at {checkpoint}: pass --checkpoint PATH (this script's layout or "
                         f"UniSpeech's) or set SPEAKER_EMBEDDING_CHECKPOINT")
        downloaded = download_official(channel, args.frontend, os.path.dirname(checkpoint))
    source = downloaded or checkpoint  # the file the weights are read from
    try:
        state = read_state_dict(torch, source)
    except Exception as error:
        channel.fail(f"cannot read the checkpoint {source}: {protocol.describe(error, 200)}")
    model = build_model(args.frontend, args.channels, args.embedding_dim)
    if is_unispeech_layout(state):
        state = from_unispeech(torch, state, set(model.state_dict()))
    try:
        result = model.load_state_dict(state, strict=False)
    except RuntimeError as error:
        channel.fail(f"the checkpoint {source} does not fit --frontend {args.frontend}: {protocol.describe(error, 200)}")
    if result.missing_keys or result.unexpected_keys:
        channel.fail(f"the checkpoint {source} does not fit --frontend {args.frontend}: "
                     f"{len(result.missing_keys)} keys missing (e.g. {result.missing_keys[:3]}), "
                     f"{len(result.unexpected_keys)} unexpected (e.g. {result.unexpected_keys[:3]})")
    if downloaded:  # keep the converted weights only, written whole before the download goes
        torch.save(model.state_dict(), checkpoint + ".part")
        os.replace(checkpoint + ".part", checkpoint)
        os.remove(downloaded)
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
