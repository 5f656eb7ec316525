# source: https://github.com/speechbrain/speechbrain/pull/2805
# also: https://github.com/speechbrain/speechbrain/commit/f07cfc76bd4b864c598a9ed5948caa3fe3176516
# kind: attribute_not_buffer
# bug: the neural audio-codec wrapper stacked the quantizer codebooks into a plain tensor attribute in __init__, while the model was still on the CPU; moving the wrapper to CUDA moved the codec but not that stacked copy, so the gather with CUDA tokens in encode() failed; the fix computes the stacked embeddings lazily on first use, from the already-moved codebooks.
# split: test18
import torch
import torch.nn as nn


class Codebook(nn.Module):
    def __init__(self, size=256, dim=32):
        super().__init__()
        self.register_buffer("embed", torch.randn(size, dim))


class TinyCodec(nn.Module):
    def __init__(self, n_q=8, size=256, dim=32):
        super().__init__()
        self.enc = nn.Conv1d(1, dim, kernel_size=16, stride=16)
        self.codebooks = nn.ModuleList([Codebook(size, dim) for _ in range(n_q)])
        self.dec = nn.ConvTranspose1d(dim, 1, kernel_size=16, stride=16)

    def encode(self, wav, n_q):
        z = self.enc(wav).transpose(1, 2)  # B, T, D
        codes = []
        for cb in self.codebooks[:n_q]:
            idx = torch.cdist(z, cb.embed.unsqueeze(0).expand(z.shape[0], -1, -1)).argmin(-1)
            codes.append(idx)
            z = z - cb.embed[idx]
        return torch.stack(codes, 1)  # B, K, T

    def decode(self, codes):
        z = sum(cb.embed[codes[:, k]] for k, cb in enumerate(self.codebooks[: codes.shape[1]]))
        return self.dec(z.transpose(1, 2))


class CodecTokenizer(nn.Module):
    def __init__(self, num_codebooks=8):
        super().__init__()
        self.model = TinyCodec()
        self.num_codebooks = num_codebooks
        self.embeddings = self._stack_codebooks()  # bug: attribute_not_buffer

    @torch.no_grad()
    def _stack_codebooks(self):
        return torch.stack([cb.embed for cb in self.model.codebooks[: self.num_codebooks]])  # K, C, D

    def encode(self, wav):
        if wav.dim() == 2:
            wav = wav.unsqueeze(1)
        tokens = self.model.encode(wav, self.num_codebooks)  # B, K, T
        index = tokens.unsqueeze(-1).expand(-1, -1, -1, self.embeddings.shape[-1])
        emb = torch.gather(self.embeddings.unsqueeze(0).expand(tokens.shape[0], -1, -1, -1), 2, index)
        return tokens, emb

    def forward(self, wav):
        tokens, emb = self.encode(wav)
        return tokens, emb, self.model.decode(tokens)


if __name__ == "__main__":
    tok = CodecTokenizer().to("cuda")
    print([t.shape for t in tok(torch.randn(2, 16000, device="cuda"))])
