# source: https://github.com/fishaudio/fish-speech/pull/743
# also: https://github.com/fishaudio/fish-speech/commit/2fa8034a75659d926f307f3391980d84938e94b5
# kind: inverted_fallback
# bug: the model manager first chose "mps" when it was available, but then ran a separate `if not torch.cuda.is_available(): device = "cpu"` check, which is always true on Apple machines, so the accelerator choice was overwritten and the models ran on the CPU; the merged fix makes the CPU fallback an `elif` of the accelerator check.
# split: test16
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, vocab=1024, dim=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 8, batch_first=True), 4)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.layers(self.embed(tokens)))


class ModelManager:
    def __init__(self, device="cuda", half=False):
        self.device = device
        self.precision = torch.half if half else torch.bfloat16

        if torch.backends.mps.is_available():
            self.device = "mps"
            print("mps is available, running on mps.")

        if not torch.cuda.is_available():  # bug: inverted_fallback
            self.device = "cpu"
            print("CUDA is not available, running on CPU.")

        self.model = Decoder().to(device=self.device, dtype=self.precision).eval()

    @torch.inference_mode()
    def generate(self, prompt_tokens, steps=32):
        tokens = prompt_tokens.to(self.device)
        for _ in range(steps):
            logits = self.model(tokens)[:, -1]
            tokens = torch.cat([tokens, logits.argmax(-1, keepdim=True)], dim=1)
        return tokens.cpu()


if __name__ == "__main__":
    manager = ModelManager(device="cuda", half=True)
    print(manager.generate(torch.randint(0, 1024, (1, 16))).shape)
