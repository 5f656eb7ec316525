# source: https://github.com/nasaharvest/presto/issues/29
# also: https://github.com/nasaharvest/presto/pull/31
# kind: loaded_weights_not_moved
# bug: `Presto.load_pretrained()` built the encoder-decoder on the CPU and loaded the state dict with `map_location=device` (the package-wide CUDA-if-available device), which copies the weights into the existing CPU parameters, then returned the model without moving it; callers sent their inputs to `device`, so embeddings failed with CPU weights against CUDA inputs; the fix returns `model.to(device)`.
# split: test12
import torch
import torch.nn as nn

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
default_model_path = "default_model.pt"


class PixelTimeseriesEncoder(nn.Module):
    def __init__(self, n_bands=17, dim=128, depth=2, max_len=24):
        super().__init__()
        self.band_embed = nn.Linear(n_bands, dim)
        self.month_embed = nn.Embedding(12, dim)
        self.register_buffer("pos_embed", torch.randn(1, max_len, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, 4, 4 * dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)

    def forward(self, x, month):
        h = self.band_embed(x) + self.month_embed(month) + self.pos_embed[:, : x.shape[1]]
        return self.blocks(h).mean(dim=1)


class PixelModel(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = nn.Linear(128, 17)

    @classmethod
    def construct(cls, **kwargs):
        return cls(PixelTimeseriesEncoder(**kwargs))

    @classmethod
    def load_pretrained(cls, model_path=default_model_path):
        model = cls.construct()
        model.load_state_dict(torch.load(model_path, map_location=device))
        return model  # bug: loaded_weights_not_moved


def embed_pixels(arrays, months, batch_size=64):
    model = PixelModel.load_pretrained()
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(arrays), batch_size):
            x = torch.as_tensor(arrays[i : i + batch_size], dtype=torch.float32).to(device)
            m = torch.as_tensor(months[i : i + batch_size], dtype=torch.long).to(device)
            out.append(model.encoder(x, m).cpu())
    return torch.cat(out)
