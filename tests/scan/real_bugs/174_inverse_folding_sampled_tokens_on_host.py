# source: https://github.com/facebookresearch/esm/pull/488
# also: https://github.com/facebookresearch/esm/commit/3c961b6992e84737022c8a4fc9b8055d4b66b9aa
# kind: tensor_no_device_in_forward
# bug: the inverse-folding model's sample() moved the encoded coordinates to the requested device but built the token buffer it decodes into with torch.full((1, 1 + L), mask_idx, dtype=int) on the CPU, so sampling on a GPU failed in the decoder; the fix moves sampled_tokens to the device before decoding (issue #487).
# split: test6
import torch
import torch.nn as nn
import torch.nn.functional as F


class StructureToSequence(nn.Module):
    def __init__(self, encoder, decoder, vocab):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.vocab = vocab

    def _featurize(self, coords, device):
        xyz = torch.as_tensor(coords, dtype=torch.float32, device=device).unsqueeze(0)
        pad = torch.isnan(xyz[..., 0, 0])
        return torch.nan_to_num(xyz), pad

    @torch.no_grad()
    def sample(self, coords, partial_seq=None, temperature=1.0, device=None):
        L = len(coords)
        xyz, pad = self._featurize(coords, device)
        mask_idx = self.vocab.index("<mask>")
        tokens = torch.full((1, 1 + L), mask_idx, dtype=int)  # bug: tensor_no_device_in_forward
        tokens[0, 0] = self.vocab.index("<cath>")
        if partial_seq is not None:
            for i, aa in enumerate(partial_seq):
                tokens[0, i + 1] = self.vocab.index(aa)
        memory = self.encoder(xyz, pad)
        cache = {}
        for i in range(1, L + 1):
            logits = self.decoder(tokens[:, :i], memory, incremental_state=cache)
            probs = F.softmax(logits[0, -1] / temperature, dim=-1)
            if tokens[0, i] == mask_idx:
                tokens[:, i] = torch.multinomial(probs, 1)
        return "".join(self.vocab[t] for t in tokens[0, 1:].tolist())
