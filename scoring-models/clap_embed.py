#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): CLAP audio and text embeddings (CLAPScore).

A joint text-audio embedder for aeval's clap_score. Audio comes at 48 kHz (the entry's
input_sample_rate: 48000), 16-bit mono WAV.
  * an audio request -> {"embedding": path}, a 1 x 512 float32 .npy: ClapModel.get_audio_features
    of the clip (the feature extractor's log-mel, 10 s windows: shorter clips are repeated and
    padded, longer ones cropped at random by the unfused model's "rand_trunc")
  * a text request (no audio, the text in fields.text) -> a 1 x 512 float32 .npy of
    ClapModel.get_text_features, the text tokenized as LAION-CLAP does (RoBERTa, truncated to 77
    tokens)
Both are L2-normalized: transformers' get_audio_features / get_text_features already return unit
vectors (4.49), and the script normalizes again (a no-op then), so the dot product of an audio and
a text embedding is the cosine CLAPScore reports.

  --model  Hugging Face id or local folder (default laion/clap-htsat-unfused)
  --seed   the NumPy seed set before every audio clip (default 0), so that the random crop of a
           clip over 10 s is the same each time (aeval caches embeddings by the audio's content)
  --device auto (cuda when available), cpu, cuda, cuda:N

Not verified here: embeddings against LAION-CLAP's own package (laion_clap), which quantizes the
waveform to int16 with a 32767 scale (this script reads int16 / 32768) and may crop differently.

Expected failures (transformers missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "clap_embed.py:". Replies, that line, reading WAV
and writing the .npy: process_protocol.py, beside this script, which all these scripts share.
"""
import argparse

import process_protocol as protocol

RATE = 48000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="laion/clap-htsat-unfused")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    protocol.run(__file__, load, parser.parse_args())


def load(args, channel):
    # libraries are imported here, not at the top: protocol.run reports a missing one in one line
    import numpy as np
    import torch
    import transformers
    from transformers import ClapModel, ClapProcessor

    transformers.logging.set_verbosity_error()
    try:
        processor = ClapProcessor.from_pretrained(args.model)
        model = ClapModel.from_pretrained(args.model)
    except Exception as error:
        channel.fail(protocol.hf_load_failure(args.model, error))
    device = protocol.to_device(torch, model, args.device)
    identity = f"{args.model} (transformers {transformers.__version__}, L2-normalized, {RATE} Hz)"

    def answer(request):
        destination = protocol.embedding_path(request)
        audio = request.get("audio") or []
        with torch.no_grad():
            if audio:
                samples = protocol.read_wav(audio[0], RATE)
                np.random.seed(args.seed)
                inputs = processor.feature_extractor(samples, sampling_rate=RATE, return_tensors="pt")
                extra = {"is_longer": inputs["is_longer"].to(device)} if "is_longer" in inputs else {}
                features = model.get_audio_features(input_features=inputs["input_features"].to(device), **extra)
            else:
                text = (request.get("fields") or {}).get("text")
                if not isinstance(text, str) or not text.strip():
                    raise ValueError("a request without audio needs its text in fields.text")
                tokens = processor.tokenizer([text], padding="max_length", truncation=True, max_length=77,
                                             return_tensors="pt")
                features = model.get_text_features(input_ids=tokens["input_ids"].to(device),
                                                   attention_mask=tokens["attention_mask"].to(device))
            if not torch.is_tensor(features):
                raise TypeError(f"get_*_features returned {type(features).__name__}, expected a tensor "
                                f"(use the pinned transformers)")
            vector = torch.nn.functional.normalize(features.float(), dim=-1).cpu().numpy().reshape(1, -1)
        return protocol.save_embedding(destination, vector)

    return identity, answer


if __name__ == "__main__":
    main()
