# source: https://github.com/facebookresearch/pytext/pull/297
# also: https://github.com/facebookresearch/pytext/commit/344fddf45e8b3aaf1b411b2038e992409707c8c1
# kind: tensor_no_device_in_forward
# bug: when no state was passed, the BiLSTM representation built its zero (h0, c0) with torch.zeros on the CPU while the embeddings were on the GPU; the fix created the state on the current CUDA device.
# split: dev2
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class SeqEncoder(nn.Module):
    def __init__(self, emb_dim: int, hid: int, layers: int = 1):
        super().__init__()
        self.hid, self.layers = hid, layers
        self.rnn = nn.LSTM(emb_dim, hid, layers, batch_first=True, bidirectional=True)

    def forward(self, emb, lengths, state=None):
        if state is None:
            zeros = torch.zeros(self.layers * 2, lengths.size(0), self.hid)  # bug: tensor_no_device_in_forward
            state = (zeros, zeros)
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed, state)
        out, _ = pad_packed_sequence(out, batch_first=True)
        return out


if __name__ == "__main__":
    enc = SeqEncoder(100, 64).cuda()
    x = torch.randn(3, 7, 100, device="cuda")
    print(enc(x, torch.tensor([7, 5, 2])).shape)
