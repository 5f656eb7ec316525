# source: https://github.com/bigscience-workshop/lm-evaluation-harness/pull/76
# also: https://github.com/bigscience-workshop/lm-evaluation-harness/commit/bb01bc14286d04b014d2c94954416479d43c073d
# kind: eval_batch_not_moved
# bug: the evaluation harness's encoder-decoder wrapper put the model on `self.device`, but its log-likelihood loop passed the padded input and target token batches (built on the CPU) straight to the model, causing a CUDA/CPU mismatch; the fix moves both token tensors to `self.device` before the model call.
# split: test16
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=32000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.core = nn.Transformer(dim, nhead=4, num_encoder_layers=2, num_decoder_layers=2, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, labels):
        return self.lm_head(self.core(self.embed(input_ids), self.embed(labels)))


class Seq2SeqEvaluator:
    def __init__(self, model, pad_id=0, device="cuda"):
        self.device = torch.device(device if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device).eval()
        self.pad_id = pad_id

    def pad(self, seqs):
        width = max(len(s) for s in seqs)
        return torch.tensor([s + [self.pad_id] * (width - len(s)) for s in seqs], dtype=torch.long)

    @torch.no_grad()
    def loglikelihood(self, requests, batch_size=8):
        results = []
        for i in range(0, len(requests), batch_size):
            chunk = requests[i:i + batch_size]
            inputs_tok = self.pad([ctx for ctx, _ in chunk])
            targets_tok = self.pad([cont for _, cont in chunk])
            logits = self.model(inputs_tok, targets_tok)  # bug: eval_batch_not_moved
            logp = F.log_softmax(logits, dim=-1)
            for j, (_, cont) in enumerate(chunk):
                n = len(cont)
                tok_logp = logp[j, :n].gather(-1, targets_tok[j, :n].to(logp.device).unsqueeze(-1))
                greedy = bool((logp[j, :n].argmax(-1).cpu() == targets_tok[j, :n]).all())
                results.append((tok_logp.sum().item(), greedy))
        return results
