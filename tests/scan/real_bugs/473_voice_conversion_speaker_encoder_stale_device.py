# source: https://github.com/idiap/coqui-ai-TTS/pull/244
# kind: wrong_device_choice
# bug: the voice-conversion model built its pretrained speaker encoder with device=self.device while the model was still on the CPU, and the encoder stored that device in a plain attribute; after the whole model was moved to CUDA the encoder's weights moved too but embed_utterance kept sending mel batches to the stale CPU device, so only CPU inference worked; the fix derives the device from the encoder's parameters.
# split: test22
from typing import List, Optional, Union

import numpy as np
import torch
import torch.nn as nn

MEL_CHANNELS = 40
PARTIAL_FRAMES = 160


def wav_to_mel(wav: np.ndarray, n_fft: int = 400, hop: int = 160) -> np.ndarray:
    frames = np.lib.stride_tricks.sliding_window_view(wav, n_fft)[::hop]
    spec = np.abs(np.fft.rfft(frames * np.hanning(n_fft), axis=-1)) ** 2
    fb = np.random.RandomState(0).rand(spec.shape[-1], MEL_CHANNELS)
    return np.log(spec @ fb + 1e-6).astype(np.float32)


class SpeakerEncoder(nn.Module):
    def __init__(self, weights_path: Optional[str] = None, device: Union[str, torch.device] = None):
        super().__init__()
        self.lstm = nn.LSTM(MEL_CHANNELS, 256, 3, batch_first=True)
        self.linear = nn.Linear(256, 256)
        self.relu = nn.ReLU()
        if device is None:
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        elif isinstance(device, str):
            device = torch.device(device)
        self.device = device
        if weights_path is not None:
            state = torch.load(weights_path, map_location="cpu")
            self.load_state_dict(state["model_state"], strict=False)
        self.to(device)

    def forward(self, mels: torch.Tensor) -> torch.Tensor:
        _, (hidden, _) = self.lstm(mels)
        raw = self.relu(self.linear(hidden[-1]))
        return raw / torch.norm(raw, dim=1, keepdim=True)

    def embed_utterance(self, wav: np.ndarray) -> np.ndarray:
        mel = wav_to_mel(wav)
        starts = range(0, max(1, mel.shape[0] - PARTIAL_FRAMES + 1), PARTIAL_FRAMES // 2)
        mels = np.stack([np.pad(mel[s:s + PARTIAL_FRAMES], ((0, max(0, s + PARTIAL_FRAMES - mel.shape[0])), (0, 0))) for s in starts])
        with torch.no_grad():
            mels = torch.from_numpy(mels).to(self.device)  # bug: wrong_device_choice
            partial = self(mels).cpu().numpy()
        raw = partial.mean(axis=0)
        return raw / np.linalg.norm(raw, 2)


class FreeStyleVC(nn.Module):
    def __init__(self, hidden=192):
        super().__init__()
        self.content_proj = nn.Conv1d(1024, hidden, 1)
        self.spk_proj = nn.Linear(256, hidden)
        self.decoder = nn.Conv1d(hidden, 1, 7, padding=3)
        self.load_pretrained_speaker_encoder()

    @property
    def device(self):
        return next(self.parameters()).device

    def load_pretrained_speaker_encoder(self):
        self.enc_spk = SpeakerEncoder(None, device=self.device)

    @torch.no_grad()
    def voice_conversion(self, content: torch.Tensor, target_wavs: List[np.ndarray]) -> torch.Tensor:
        g = np.mean([self.enc_spk.embed_utterance(w) for w in target_wavs], axis=0)
        g = torch.from_numpy(g).to(self.device)
        h = self.content_proj(content.to(self.device)) + self.spk_proj(g)[None, :, None]
        return self.decoder(h)


if __name__ == "__main__":
    vc = FreeStyleVC().cuda().eval()
    target = [np.random.randn(32000).astype(np.float32)]
    out = vc.voice_conversion(torch.randn(1, 1024, 200), target)
