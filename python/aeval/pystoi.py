"""pystoi's call shape over aeval's exact STOI: `from aeval.pystoi import stoi`; stoi(clean, denoised, fs_sig)."""
from . import score_audio as _score_audio


def stoi(x, y, fs_sig, extended=False):
    """STOI (or eSTOI) of the denoised y against the clean x, both 1-D arrays at fs_sig, as pystoi 0.4.1."""
    return _score_audio("estoi" if extended else "stoi", x, y, fs_sig).value
