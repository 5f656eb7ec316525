# source: https://github.com/AMAAI-Lab/Music2Emotion/pull/9
# also: https://github.com/AMAAI-Lab/Music2Emotion/commit/3c5bcbefb261595fb5c2206881f2f0e272ed2509
# kind: loaded_weights_not_moved
# bug: the music-emotion predictor picked `self.device` from `torch.cuda.is_available()` and loaded its main checkpoint with `map_location=self.device`, but the chord-recognition transformer used in `predict` read its GPU-saved checkpoint with a bare `torch.load(model_file)`, which crashes on CPU-only machines; the merged fix passes `map_location=self.device`.
# split: test14
import os

import numpy as np
import torch
import torch.nn as nn


class ChordTransformer(nn.Module):
    def __init__(self, n_bins=144, dim=128, num_chords=170):
        super().__init__()
        self.proj = nn.Linear(n_bins, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, batch_first=True), 2)
        self.head = nn.Linear(dim, num_chords)

    def forward(self, x):
        return self.head(self.encoder(self.proj(x))).argmax(-1)


class EmotionPredictor:
    def __init__(self, weights="saved_models/emotion.ckpt"):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.head = nn.Linear(768 * 2, 58)
        state = torch.load(weights, map_location=self.device)["state_dict"]
        self.head.load_state_dict({k.replace("model.", ""): v for k, v in state.items()})
        self.head.to(self.device).eval()

    def chords(self, feature, model_file="./inference/data/chord_model.pt", timestep=108):
        model = ChordTransformer().to(self.device)
        if os.path.isfile(model_file):
            checkpoint = torch.load(model_file)  # bug: loaded_weights_not_moved
            mean, std = checkpoint["mean"], checkpoint["std"]
            model.load_state_dict(checkpoint["model"])
        feature = (feature.T - mean) / std
        pad = timestep - feature.shape[0] % timestep
        feature = np.pad(feature, ((0, pad), (0, 0)))
        x = torch.tensor(feature, dtype=torch.float32).unsqueeze(0).to(self.device)
        model.eval()
        with torch.no_grad():
            return [model(x[:, t:t + timestep]).cpu() for t in range(0, x.shape[1], timestep)]
