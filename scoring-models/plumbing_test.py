#!/usr/bin/env python3
"""PLUMBING test of the scoring-model scripts in this folder: never an accuracy test.

Run with Debian's interpreter, which has python3-torch and python3-torchaudio (torch 1.13,
torchaudio 0.13.1) but neither transformers nor FunASR, and no network:

    /usr/bin/python3 scoring-models/plumbing_test.py

What it checks:
  * speaker_embedding.py on a random-weight checkpoint (frontend hubert_base, the smallest in
    torchaudio 0.13.1) speaks the protocol: "ready" first; 1 x 256 finite float32 .npy
    embeddings; the same clip gives the same embedding; an unreadable clip gets an error reply for
    its id and the process goes on; a missing checkpoint ends it with one line; the frontend names
    agree with torchaudio's fairseq import on every HuBERT key, and a UniSpeech-layout file of the
    same weights gives the same embedding; the official download fails offline in one line.
  * panns_embed.py on a random-weight CNN14: 1 x 2048 embeddings over the protocol, error replies
    for short or unreadable clips; its log-mel front end equals torchaudio's given torchlibrosa's
    kernels.
  * utmos.py and vggish_embed.py answer requests through torch.hub with stand-in local hub
    repositories (tiny fake models, not UTMOS or VGGish): the scripts' request paths and shapes.
  * every script, when its library is missing or its weights cannot be had (HF_HUB_OFFLINE=1,
    TRANSFORMERS_OFFLINE=1, empty HF_HOME / TORCH_HOME / XDG_CACHE_HOME in a temp dir, no
    network), exits with status 2 and exactly one stderr line starting with its name, nothing on
    stdout; and the same with stub libraries that fail to fetch weights (and print noise first).
With any other interpreter the tests are skipped, with the reason.
"""
import importlib.util
import json
import math
import os
import queue
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import textwrap
import threading
import unittest
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_PYTHON = "/usr/bin/python3"
BANNER = ("PLUMBING test (random weights, stand-in models): it checks the protocol, the shapes and the "
          "failure lines of scoring-models/, never accuracy")


def skip_reason():
    if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON):
        return (f"runs only with Debian's {DEBIAN_PYTHON} (python3-torch, python3-torchaudio installed), "
                f"not {sys.executable}")
    try:
        import numpy  # noqa: F401
        import torch  # noqa: F401
        import torchaudio
    except ImportError as error:
        return f"Debian's python3-torch, python3-torchaudio and python3-numpy are needed ({error})"
    if not hasattr(torchaudio.models, "hubert_base"):
        return f"torchaudio {torchaudio.__version__} has no models.hubert_base"
    return None


SKIP = skip_reason()


def write_wav(path, seconds=1.0, rate=16000, seed=0, tone=220.0):
    rng = random.Random(seed)
    frames = bytearray()
    for i in range(int(seconds * rate)):
        value = 0.3 * math.sin(2 * math.pi * tone * i / rate) + rng.gauss(0.0, 0.03)
        frames += struct.pack("<h", max(-32768, min(32767, int(value * 32767))))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))
    return path


def isolated_env(root, **extra):
    """No weights anywhere: offline flags and empty caches under a temp dir."""
    env = dict(os.environ)
    for name in ("HF_HOME", "TORCH_HOME", "XDG_CACHE_HOME", "MODELSCOPE_CACHE", "HOME"):
        path = os.path.join(root, name.lower())
        os.makedirs(path, exist_ok=True)
        env[name] = path
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", SPEAKER_EMBEDDING_CHECKPOINT="")
    env.pop("PYTHONPATH", None)
    env.update(extra)
    return env


class ModelProcess:
    """A script run as aeval runs it: NDJSON on stdin/stdout, stderr kept aside."""

    def __init__(self, script, args, env):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, script), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, env=env, text=True)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def receive(self, timeout=60):
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise AssertionError(f"the process ended (status {self.proc.wait()}): {self.stderr_text()}")
        return json.loads(line)

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def finish(self):
        self.proc.stdin.close()
        status = self.proc.wait(timeout=60)
        rest = []
        while True:
            line = self.lines.get(timeout=10)
            if line is None:
                break
            rest.append(line)
        return status, rest

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    def stderr_text(self):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")


def load_script(name):
    """A script of this folder imported as a module (its build_model and tables)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fairseq_hubert_base_names():
    """HuBERT-base's parameter names as fairseq (and s3prl, inside UniSpeech's checkpoints) has them."""
    names = [f"feature_extractor.conv_layers.{i}.0.weight" for i in range(7)]
    names += ["feature_extractor.conv_layers.0.2.weight", "feature_extractor.conv_layers.0.2.bias"]
    names += [f"{m}.{p}" for m in ("post_extract_proj", "layer_norm", "encoder.layer_norm") for p in ("weight", "bias")]
    names += [f"encoder.pos_conv.0.{p}" for p in ("bias", "weight_g", "weight_v")]
    for i in range(12):
        for part in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.out_proj",
                     "self_attn_layer_norm", "fc1", "fc2", "final_layer_norm"):
            names += [f"encoder.layers.{i}.{part}.weight", f"encoder.layers.{i}.{part}.bias"]
    return names


def unispeech_head_names():
    """The parameter and buffer names of UniSpeech's ECAPA_TDNN_SMALL head (models/ecapa_tdnn.py)."""
    norm = ("weight", "bias", "running_mean", "running_var", "num_batches_tracked")
    names = ["feature_weight"] + [f"layer1.conv.{p}" for p in ("weight", "bias")] + [f"layer1.bn.{p}" for p in norm]
    for k in (2, 3, 4):
        for conv in ("Conv1dReluBn1", "Conv1dReluBn2"):
            names += [f"layer{k}.{conv}.conv.{p}" for p in ("weight", "bias")]
            names += [f"layer{k}.{conv}.bn.{p}" for p in norm]
        for j in range(7):
            names += [f"layer{k}.Res2Conv1dReluBn.convs.{j}.{p}" for p in ("weight", "bias")]
            names += [f"layer{k}.Res2Conv1dReluBn.bns.{j}.{p}" for p in norm]
        names += [f"layer{k}.SE_Connect.linear{i}.{p}" for i in (1, 2) for p in ("weight", "bias")]
    names += [f"{m}.{p}" for m in ("conv", "pooling.linear1", "pooling.linear2", "linear") for p in ("weight", "bias")]
    names += [f"bn.{p}" for p in norm]
    return names


def request(rid, wav, out):
    return {"type": "request", "id": rid, "sample_id": rid, "messages": [], "fields": {},
            "audio": [wav], "output_audio": out + ".wav", "output_embedding": out}


class ScriptTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="aeval-scoring-plumbing-")
        self.processes = []

    def tearDown(self):
        for process in self.processes:
            process.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start(self, script, args, env):
        process = ModelProcess(script, args, env)
        self.processes.append(process)
        return process

    def assert_one_line_failure(self, script, args=(), env=None, contains=None):
        result = subprocess.run([sys.executable, os.path.join(HERE, script), *args], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, env=env or isolated_env(self.tmp), timeout=90)
        lines = result.stderr.splitlines()
        print(f"    {script} -> status {result.returncode}: {result.stderr.strip()[:200]}")
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "", "nothing may reach stdout")
        self.assertEqual(len(lines), 1, f"exactly one stderr line expected, got: {result.stderr!r}")
        self.assertTrue(lines[0].startswith(script + ":"), lines[0])
        if contains:
            self.assertIn(contains, lines[0])
        return lines[0]

    def load_npy(self, path):
        import numpy
        return numpy.load(path)


@unittest.skipIf(SKIP, SKIP)
class SpeakerEmbeddingPlumbing(ScriptTestCase):
    """speaker_embedding.py with RANDOM weights on hubert_base: protocol and shapes, not accuracy."""

    @classmethod
    def setUpClass(cls):
        import torch
        cls.shared = tempfile.mkdtemp(prefix="aeval-speaker-plumbing-")
        sys.dont_write_bytecode = True  # leave no __pycache__ beside the scripts
        module = load_script("speaker_embedding")
        torch.manual_seed(0)
        model = module.build_model("hubert_base")
        cls.state = model.state_dict()
        cls.checkpoint = os.path.join(cls.shared, "random_hubert_base_ecapa.pt")
        torch.save(cls.state, cls.checkpoint)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.shared, ignore_errors=True)

    def test_embeddings_over_the_protocol(self):
        import numpy
        voice = write_wav(os.path.join(self.tmp, "voice.wav"), seed=1)
        other = write_wav(os.path.join(self.tmp, "other.wav"), seed=2, tone=330.0)
        process = self.start("speaker_embedding.py", ["--frontend", "hubert_base", "--checkpoint", self.checkpoint,
                                                      "--device", "cpu"], isolated_env(self.tmp))
        ready = process.receive()
        self.assertEqual(ready.get("type"), "ready", ready)
        outputs = {rid: os.path.join(self.tmp, f"{rid}.npy") for rid in ("a", "b", "c", "d")}
        process.send(request("a", voice, outputs["a"]))
        process.send(request("b", os.path.join(self.tmp, "missing.wav"), outputs["b"]))
        process.send(request("c", voice, outputs["c"]))
        process.send(request("d", other, outputs["d"]))
        replies = {}
        for _ in range(4):
            reply = process.receive()
            replies[reply["id"]] = reply
        self.assertEqual(replies["b"]["type"], "error", replies["b"])
        self.assertTrue(replies["b"]["message"])
        vectors = {}
        for rid in ("a", "c", "d"):
            self.assertEqual(replies[rid], {"type": "response", "id": rid, "embedding": outputs[rid]})
            vectors[rid] = self.load_npy(outputs[rid])
            self.assertEqual(vectors[rid].shape, (1, 256))
            self.assertEqual(vectors[rid].dtype, numpy.float32)
            self.assertTrue(numpy.isfinite(vectors[rid]).all())
        self.assertTrue(numpy.array_equal(vectors["a"], vectors["c"]), "the same clip must give the same embedding")
        self.assertFalse(numpy.array_equal(vectors["a"], vectors["d"]), "two different clips gave one embedding")
        status, rest = process.finish()
        self.assertEqual((status, rest), (0, []), process.stderr_text())

    def test_missing_checkpoint_is_one_line(self):
        self.assert_one_line_failure("speaker_embedding.py", ["--frontend", "hubert_base"], contains="no checkpoint")

    def test_a_unispeech_file_missing_weights_is_one_line(self):
        import torch
        path = os.path.join(self.tmp, "unispeech_like.pth")
        torch.save({"model": {"feature_weight": torch.zeros(13), "layer1.conv.weight": torch.zeros(512, 768, 5)}}, path)
        self.assert_one_line_failure("speaker_embedding.py", ["--frontend", "hubert_base", "--checkpoint", path],
                                     contains="does not fit")

    def test_frontend_names_agree_with_torchaudios_fairseq_import(self):
        """Every HuBERT-base key, named as fairseq (and UniSpeech's s3prl frontend) names it, is renamed
        by the script exactly as torchaudio's own fairseq import renames it."""
        from torchaudio.models.wav2vec2.utils.import_fairseq import _map_key
        module = load_script("speaker_embedding")
        names = fairseq_hubert_base_names()
        theirs = {name: _map_key(name) for name in names}
        ours = {name: module.rename(name, module.FRONTEND_NAMES) for name in names}
        self.assertEqual(ours, theirs)
        frontend_keys = {k[len("frontend."):] for k in self.state if k.startswith("frontend.")}
        self.assertEqual(set(theirs.values()), frontend_keys, "the names must cover the model's frontend")

    def test_a_unispeech_layout_file_gives_the_same_embeddings(self):
        import numpy
        import torch
        from torchaudio.models.wav2vec2.utils.import_fairseq import _map_key
        module = load_script("speaker_embedding")
        unispeech = {"feature_extract.model." + name: self.state["frontend." + _map_key(name)]
                     for name in fairseq_hubert_base_names()}
        head = {name: module.rename(name, module.HEAD_NAMES) for name in unispeech_head_names()}
        self.assertEqual(sorted(head.values()), sorted(k for k in self.state if not k.startswith("frontend.")),
                         "UniSpeech's head names must map one to one onto the script's")
        unispeech.update({name: self.state[ours] for name, ours in head.items()})
        unispeech["loss_calculator.projection.weight"] = torch.zeros(3, 256)  # training-only, dropped
        unispeech["feature_extract.model.mask_emb"] = torch.zeros(768)
        path = os.path.join(self.tmp, "unispeech_layout.pth")
        torch.save({"model": unispeech}, path)
        voice = write_wav(os.path.join(self.tmp, "voice.wav"), seed=3)
        vectors = []
        for checkpoint in (self.checkpoint, path):
            process = self.start("speaker_embedding.py", ["--frontend", "hubert_base", "--checkpoint", checkpoint,
                                                          "--device", "cpu"], isolated_env(self.tmp))
            self.assertEqual(process.receive().get("type"), "ready")
            out = os.path.join(self.tmp, f"{len(vectors)}.npy")
            process.send(request("v", voice, out))
            self.assertEqual(process.receive()["type"], "response")
            self.assertEqual(process.finish(), (0, []))
            vectors.append(self.load_npy(out))
        self.assertTrue(numpy.array_equal(vectors[0], vectors[1]))

    def test_the_official_download_fails_in_one_line_and_leaves_no_file(self):
        module = load_script("speaker_embedding")

        class Failed(Exception):
            pass

        class Channel:
            def fail(self, message):
                raise Failed(message)

        class OfflineGdown:
            @staticmethod
            def download(id, output, quiet):
                with open(output, "wb") as f:  # the connection drops half way
                    f.write(b"PK\x03\x04 half a file")
                raise ConnectionError("Connection reset by peer while reading drive.google.com")

        folder = os.path.join(self.tmp, "cache")
        sys.modules["gdown"] = OfflineGdown
        try:
            with self.assertRaises(Failed) as failure:
                module.download_official(Channel(), "wavlm_large", folder)
        finally:
            del sys.modules["gdown"]
        message = str(failure.exception)
        self.assertIn("cannot download UniSpeech's wavlm_large_finetune.pth", message)
        self.assertIn("1-aE1NfzpRCLxA4GUxX9ITI3F9LlbtEGP", message)
        self.assertIn("ConnectionError", message)
        self.assertEqual(os.listdir(folder), [])


@unittest.skipIf(SKIP, SKIP)
class PannsPlumbing(ScriptTestCase):
    """panns_embed.py with RANDOM weights (cnn14-16k): protocol, shapes and the front end's arithmetic,
    not accuracy."""

    @classmethod
    def setUpClass(cls):
        import torch
        cls.shared = tempfile.mkdtemp(prefix="aeval-panns-plumbing-")
        sys.dont_write_bytecode = True
        cls.module = load_script("panns_embed")
        torch.manual_seed(0)
        model = cls.module.build_model("cnn14-16k")
        cls.checkpoint = os.path.join(cls.shared, "random_cnn14_16k.pth")
        torch.save({"model": model.state_dict()}, cls.checkpoint)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.shared, ignore_errors=True)

    def test_embeddings_over_the_protocol(self):
        import numpy
        voice = write_wav(os.path.join(self.tmp, "a.wav"), seed=1)
        clips = {"a": voice, "c": voice,
                 "d": write_wav(os.path.join(self.tmp, "d.wav"), seconds=2.0, seed=2, tone=330.0),
                 "short": write_wav(os.path.join(self.tmp, "short.wav"), seconds=0.2),
                 "missing": os.path.join(self.tmp, "missing.wav")}
        process = self.start("panns_embed.py", ["--variant", "cnn14-16k", "--checkpoint", self.checkpoint,
                                                "--device", "cpu"], isolated_env(self.tmp))
        self.assertEqual(process.receive(timeout=120).get("type"), "ready")
        for rid, clip in clips.items():
            process.send(request(rid, clip, os.path.join(self.tmp, rid + ".npy")))
        replies = {}
        for _ in clips:
            reply = process.receive()
            replies[reply["id"]] = reply
        self.assertEqual(replies["missing"]["type"], "error", replies["missing"])
        self.assertEqual(replies["short"]["type"], "error", replies["short"])
        self.assertIn("needs at least 0.31 s", replies["short"]["message"])
        rows = {}
        for rid in ("a", "c", "d"):
            self.assertEqual(replies[rid]["type"], "response", replies[rid])
            rows[rid] = self.load_npy(replies[rid]["embedding"])
            self.assertEqual(rows[rid].shape, (1, 2048))
            self.assertEqual(rows[rid].dtype, numpy.float32)
            self.assertTrue(numpy.isfinite(rows[rid]).all() and (rows[rid] >= 0).all(), "ReLU output expected")
        self.assertTrue(numpy.array_equal(rows["a"], rows["c"]))
        self.assertFalse(numpy.array_equal(rows["a"], rows["d"]))
        self.assertEqual(process.finish(), (0, []))

    def test_log_mel_front_end_equals_torchaudio_with_torchlibrosa_kernels(self):
        """With the kernels torchlibrosa stores (Hann-windowed DFT rows, Slaney mel matrix), the
        strided-conv STFT and the mel product must give torchaudio's centred, reflect-padded log-mel."""
        import torch
        import torchaudio
        model = self.module.build_model("cnn14-16k")
        n_fft, hop, bins = 512, 160, 257
        n = torch.arange(n_fft, dtype=torch.float64)
        k = torch.arange(bins, dtype=torch.float64)[:, None]
        window = torch.hann_window(n_fft, periodic=True, dtype=torch.float64)
        angle = -2 * math.pi * k * n / n_fft
        stft = model.spectrogram_extractor.stft
        stft.conv_real.weight.data = (torch.cos(angle) * window).float()[:, None, :]
        stft.conv_imag.weight.data = (torch.sin(angle) * window).float()[:, None, :]
        mel = torchaudio.functional.melscale_fbanks(bins, 50.0, 8000.0, 64, 16000, norm="slaney", mel_scale="slaney")
        model.logmel_extractor.melW.data = mel.float()
        torch.manual_seed(1)
        wave = 0.1 * torch.randn(1, 16000)
        with torch.no_grad():
            ours = model.logmel_extractor(model.spectrogram_extractor(wave))[0, 0]
        reference = torchaudio.transforms.MelSpectrogram(16000, n_fft=n_fft, hop_length=hop, f_min=50.0, f_max=8000.0,
                                                         n_mels=64, center=True, pad_mode="reflect", power=2.0,
                                                         norm="slaney", mel_scale="slaney")(wave)[0].T
        reference = 10 * torch.log10(torch.clamp(reference, min=1e-10))
        self.assertEqual(tuple(ours.shape), (101, 64))
        self.assertLess(float((ours - reference).abs().max()), 1e-3)

    def test_a_checkpoint_of_another_layout_is_one_line(self):
        import torch
        path = os.path.join(self.tmp, "other.pth")
        torch.save({"model": {"fc1.weight": torch.zeros(2, 2)}}, path)
        self.assert_one_line_failure("panns_embed.py", ["--variant", "cnn14-16k", "--checkpoint", path],
                                     contains="strict load failed")


FAKE_UTMOS_HUBCONF = '''
dependencies = ["torch"]
import torch


class FakeMos(torch.nn.Module):
    """A stand-in, not UTMOS: 1 + 4 x the clip's mean absolute amplitude."""

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.tensor(4.0))

    def forward(self, wave, sr=16000):
        assert sr == 16000
        return 1 + self.scale * wave.abs().mean(dim=1)


def utmos22_strong(progress=True, pretrained=True):
    print("noise from the stand-in hub repository on stdout")
    return FakeMos().eval()
'''

FAKE_VGGISH_HUBCONF = '''
dependencies = ["torch", "numpy"]
import numpy as np
import torch


class FakeVggish(torch.nn.Module):
    """A stand-in, not VGGish: one row per 0.96 s, from 64 averaged sample bands."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.embeddings = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(True))
        self.postprocess = True
        self.device = torch.device("cpu")

    def forward(self, x, fs=None):
        assert isinstance(x, np.ndarray) and fs == 16000
        n = len(x) // 15360
        bands = torch.from_numpy(np.abs(x[: n * 15360]).reshape(n, 240, 64).mean(axis=1)).float()
        rows = self.embeddings(bands.to(self.device))
        assert not self.postprocess
        return rows


def vggish(**kwargs):
    return FakeVggish()
'''


@unittest.skipIf(SKIP, SKIP)
class HubScriptsPlumbing(ScriptTestCase):
    """utmos.py and vggish_embed.py through torch.hub with STAND-IN local repositories."""

    def fake_repo(self, name, hubconf):
        path = os.path.join(self.tmp, name)
        os.makedirs(path)
        with open(os.path.join(path, "hubconf.py"), "w") as f:
            f.write(hubconf)
        return path

    def test_utmos_scores(self):
        repo = self.fake_repo("fake_speechmos", FAKE_UTMOS_HUBCONF)
        clip = write_wav(os.path.join(self.tmp, "clip.wav"))
        process = self.start("utmos.py", ["--source", "local", "--repo", repo, "--device", "cpu"], isolated_env(self.tmp))
        self.assertEqual(process.receive().get("type"), "ready", "the ready line must come first on stdout")
        process.send(request("1", clip, os.path.join(self.tmp, "1.npy")))
        process.send(request("2", os.path.join(self.tmp, "missing.wav"), os.path.join(self.tmp, "2.npy")))
        first, second = process.receive(), process.receive()
        self.assertEqual(set(first), {"type", "id", "scores"})
        self.assertEqual(list(first["scores"]), ["mos"])
        self.assertTrue(1.0 < first["scores"]["mos"] < 5.0)
        self.assertEqual((second["type"], second["id"]), ("error", "2"))
        self.assertEqual(process.finish(), (0, []))

    def test_vggish_frames(self):
        import numpy
        repo = self.fake_repo("fake_torchvggish", FAKE_VGGISH_HUBCONF)
        stubs = os.path.join(self.tmp, "stubs")
        os.makedirs(stubs)
        with open(os.path.join(stubs, "soundfile.py"), "w") as f:
            f.write("# stand-in: torchvggish's hubconf lists soundfile, which Debian's python lacks\n")
        env = isolated_env(self.tmp, PYTHONPATH=stubs)
        process = self.start("vggish_embed.py", ["--source", "local", "--repo", repo, "--device", "cpu"], env)
        self.assertEqual(process.receive().get("type"), "ready")
        expected = {"short": (0.5, 1), "one": (1.0, 1), "long": (2.5, 2)}
        for rid, (seconds, _) in expected.items():
            clip = write_wav(os.path.join(self.tmp, rid + ".wav"), seconds=seconds)
            process.send(request(rid, clip, os.path.join(self.tmp, rid + ".npy")))
        for _ in expected:
            reply = process.receive()
            rows = self.load_npy(reply["embedding"])
            self.assertEqual(rows.shape, (expected[reply["id"]][1], 128), reply)
            self.assertEqual(rows.dtype, numpy.float32)
            self.assertTrue((rows < 0).any(), "the final ReLU should be gone (as fadtk)")
        self.assertEqual(process.finish(), (0, []))


STUB_TRANSFORMERS = '''
import sys
__version__ = "0.0-stub"
print("stub transformers: noise on stdout")
print("stub transformers: noise on stderr", file=sys.stderr)


class logging:
    @staticmethod
    def set_verbosity_error():
        pass


class _Offline:
    @classmethod
    def from_pretrained(cls, name, *args, **kwargs):
        print("stub: trying to download", name)
        raise OSError(f"We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find "
                      f"them in the cached files (stub of an offline hub, {name})")


WhisperProcessor = WhisperForConditionalGeneration = ASTModel = ClapModel = ClapProcessor = _Offline
'''

STUB_FUNASR = '''
import sys
__version__ = "0.0-stub"


class AutoModel:
    def __init__(self, model=None, **kwargs):
        # as FunASR does offline: the download failure printed on stdout, then a later, vaguer error
        print("funasr stub: a table of settings on stdout")
        print(f"Download: {model} failed!: stub of an unreachable ModelScope hub")
        print("funasr stub: more noise", file=sys.stderr)
        raise AssertionError(f"{model} is not registered")
'''


@unittest.skipIf(SKIP, SKIP)
class OneLineFailures(ScriptTestCase):
    """Missing libraries or weights: status 2, one stderr line naming the script, nothing on stdout."""

    def test_missing_library_or_weights(self):
        cases = [("whisper_asr.py", ["--language", "english"]), ("whisper_asr.py", ["--language", "auto"]),
                 ("paraformer_asr.py", []), ("utmos.py", []), ("ast_frames.py", ["--layer", "13"]),
                 ("clap_embed.py", []), ("vggish_embed.py", []), ("speaker_embedding.py", ["--frontend", "wavlm_large"]),
                 ("panns_embed.py", []), ("eres2net_embed.py", []),
                 ("openai_whisper_asr.py", ["--language", "en"]), ("emotion2vec_scores.py", [])]
        for script, args in cases:
            with self.subTest(script=script, args=args):
                self.assert_one_line_failure(script, args)

    def test_weights_unreachable_with_stub_libraries(self):
        stubs = os.path.join(self.tmp, "stubs")
        os.makedirs(os.path.join(stubs, "transformers"))
        os.makedirs(os.path.join(stubs, "funasr"))
        with open(os.path.join(stubs, "transformers", "__init__.py"), "w") as f:
            f.write(textwrap.dedent(STUB_TRANSFORMERS))
        with open(os.path.join(stubs, "funasr", "__init__.py"), "w") as f:
            f.write(textwrap.dedent(STUB_FUNASR))
        with open(os.path.join(stubs, "soundfile.py"), "w") as f:
            f.write("")
        env = isolated_env(self.tmp, PYTHONPATH=stubs)
        for script in ("whisper_asr.py", "ast_frames.py", "clap_embed.py", "paraformer_asr.py", "vggish_embed.py"):
            with self.subTest(script=script):
                line = self.assert_one_line_failure(script, env=env, contains="cannot load")
                if script == "paraformer_asr.py":
                    self.assertIn("unreachable ModelScope hub", line)


if __name__ == "__main__":
    print(BANNER)
    if SKIP:
        print(f"SKIPPED: {SKIP}")
    unittest.main(verbosity=2)
