# source: https://github.com/IBM/pytorch-seq2seq/pull/123
# also: https://github.com/IBM/pytorch-seq2seq/pull/161
# kind: tensor_no_device_in_forward
# bug: the beam-search (top-k) decoder built its per-call bookkeeping tensors - the SOS input tokens, the beam position index and the initial sequence scores - with CPU constructors inside `forward`, while the wrapped RNN decoder ran on CUDA, so beam search failed on the GPU; the fix, merged through a later pull request, moves these tensors (and the zero final hidden state) to CUDA when it is available.
# split: test17
import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderRNN(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=64, sos_id=1, max_length=20):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)
        self.sos_id, self.max_length, self.output_size = sos_id, max_length, vocab_size

    def forward_step(self, input_var, hidden):
        output, hidden = self.rnn(self.embedding(input_var), hidden)
        return F.log_softmax(self.out(output), dim=-1), hidden


class TopKDecoder(nn.Module):
    def __init__(self, decoder_rnn, k):
        super().__init__()
        self.rnn, self.k, self.V = decoder_rnn, k, decoder_rnn.output_size

    def forward(self, encoder_hidden):
        batch_size = encoder_hidden.size(1)
        self.pos_index = (torch.LongTensor(range(batch_size)) * self.k).view(-1, 1)
        hidden = encoder_hidden.repeat_interleave(self.k, dim=1)
        sequence_scores = torch.Tensor(batch_size * self.k, 1).fill_(-float("inf"))
        sequence_scores.index_fill_(0, torch.LongTensor([i * self.k for i in range(batch_size)]), 0.0)
        input_var = torch.LongTensor([[self.rnn.sos_id] * batch_size * self.k]).t()  # bug: tensor_no_device_in_forward
        predecessors = []
        for _ in range(self.rnn.max_length):
            log_probs, hidden = self.rnn.forward_step(input_var, hidden)
            sequence_scores = sequence_scores.repeat(1, self.V) + log_probs.squeeze(1)
            scores, candidates = sequence_scores.view(batch_size, -1).topk(self.k, dim=1)
            input_var = (candidates % self.V).view(batch_size * self.k, 1)
            sequence_scores = scores.view(batch_size * self.k, 1)
            beam = (candidates // self.V + self.pos_index.expand_as(candidates)).view(-1)
            hidden = hidden.index_select(1, beam)
            predecessors.append(beam)
        return sequence_scores.view(batch_size, self.k), predecessors


if __name__ == "__main__":
    decoder = TopKDecoder(DecoderRNN(), k=3).cuda()
    encoder_hidden = torch.randn(1, 4, 64).cuda()
    print(decoder(encoder_hidden)[0])
