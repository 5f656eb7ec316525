# source: https://github.com/GRAAL-Research/deepparse/pull/298
# also: https://github.com/GRAAL-Research/deepparse/commit/81088ac59368ec7273122cba1f0078f20ef71d49
# kind: tensor_no_device_in_forward
# bug: the attention decoder built its length mask in forward from `torch.arange(longest)` (no device) compared with `torch.tensor(lengths, device="cpu")`, so on a GPU the boolean index assignment on the CUDA alignment scores failed and attention models only ran on the CPU; the merged fix builds both on the device of the decoder's weights.
# split: test16
import torch
import torch.nn as nn


class AttentionDecoder(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.lstm = nn.LSTM(input_size + hidden_size, hidden_size, batch_first=True)
        self.linear_enc = nn.Linear(hidden_size, hidden_size, bias=False)
        self.linear_dec = nn.Linear(hidden_size, hidden_size)
        self.weights = nn.Parameter(torch.randn(hidden_size, 1) * 0.01)
        self.out = nn.Linear(hidden_size, output_size)

    def _attention(self, encoder_outputs, hidden, lengths):
        scores = torch.tanh(self.linear_enc(encoder_outputs) + self.linear_dec(hidden[0].transpose(0, 1)))
        alignments_scores = torch.matmul(scores, self.weights).transpose(1, 2)
        longest_sequence_length = max(lengths)
        mask = torch.arange(longest_sequence_length)[None, :] < torch.tensor(lengths, device="cpu")[:, None]  # bug: tensor_no_device_in_forward
        mask = mask.unsqueeze(1)
        alignments_scores[~mask] = float("-inf")
        weights = torch.softmax(alignments_scores, dim=2)
        return torch.bmm(weights, encoder_outputs)

    def forward(self, to_predict, hidden, encoder_outputs, lengths):
        context = self._attention(encoder_outputs, hidden, lengths)
        output, hidden = self.lstm(torch.cat([to_predict, context], dim=2), hidden)
        return self.out(output), hidden


if __name__ == "__main__":
    device = torch.device("cuda:0")
    decoder = AttentionDecoder(input_size=1, hidden_size=32, output_size=9).to(device)
    lengths = [6, 4, 3]
    enc = torch.randn(3, 6, 32, device=device)
    hidden = (torch.zeros(1, 3, 32, device=device), torch.zeros(1, 3, 32, device=device))
    step = torch.zeros(3, 1, 1, device=device)
    print(decoder(step, hidden, enc, lengths)[0].shape)
