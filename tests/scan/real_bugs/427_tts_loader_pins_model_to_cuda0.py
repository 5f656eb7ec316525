# source: https://github.com/andimarafioti/faster-qwen3-tts/pull/44
# kind: wrong_device_choice
# bug: the fast TTS wrapper took a device argument and built its graph runners on that device, but loaded the base model with a hard-coded "cuda:0" placement, so asking for cuda:1 put the weights on the first GPU while the static buffers lived on the requested one; the fix loads the base model on the user-supplied device.
# split: test20
import torch
import torch.nn as nn


class BaseTTSModel(nn.Module):
    def __init__(self, vocab=512, dim=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.talker = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    @classmethod
    def from_pretrained(cls, name, device_map="cpu", torch_dtype=torch.float32):
        return cls().to(device=device_map, dtype=torch_dtype)


class TalkerRunner:
    def __init__(self, model, device="cuda", dtype=torch.float32, max_seq_len=256):
        self.model = model
        self.device = device
        self.static_ids = torch.zeros(1, max_seq_len, dtype=torch.long, device=device)

    def run(self, ids):
        n = ids.shape[1]
        self.static_ids[:, :n].copy_(ids)
        out, _ = self.model.talker(self.model.embed(self.static_ids[:, :n]))
        return self.model.head(out).argmax(-1)


class FastTTS:
    def __init__(self, base_model, runner, device):
        self.base_model = base_model
        self.runner = runner
        self.device = device

    @classmethod
    def from_pretrained(cls, model_name, device="cuda", dtype=torch.float32):
        if not device.startswith("cuda") or not torch.cuda.is_available():
            raise ValueError("static graphs require a CUDA device")
        base = BaseTTSModel.from_pretrained(model_name, device_map="cuda:0", torch_dtype=dtype)  # bug: wrong_device_choice
        runner = TalkerRunner(base, device=device, dtype=dtype)
        return cls(base, runner, device)

    @torch.no_grad()
    def generate(self, token_ids):
        ids = torch.tensor([token_ids], device=self.device)
        return self.runner.run(ids)


if __name__ == "__main__":
    dev = "cuda:1" if torch.cuda.device_count() > 1 else "cuda"
    tts = FastTTS.from_pretrained("tiny-tts", device=dev)
    print(tts.generate([1, 2, 3, 4]).shape)
