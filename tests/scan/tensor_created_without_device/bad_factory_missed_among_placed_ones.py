# A beam search that gives its token buffer the initial state's device but starts the beam scores
# with a plain torch.zeros: the scores stay on the CPU and meet the decoder's device logits.
import torch


class BeamSearch:
    def __init__(self, decoder, initial_state):
        self.decoder = decoder
        self.state = initial_state
        self.batch = initial_state.shape[0]

    def run(self, beams, steps, start_token=0):
        scores = torch.zeros((beams, self.batch))  # expect: code.tensor_created_without_device
        scores[1:] = -1e9
        tokens = torch.full((beams * self.batch,), start_token, dtype=torch.long, device=self.state.device)
        for _ in range(steps):
            logits, _ = self.decoder(tokens)
            logits = logits.log_softmax(-1).view(beams, self.batch, -1)
            total = scores.unsqueeze(-1) + logits
            scores, tokens = total.flatten(1).topk(beams, dim=-1)
            scores = scores.t()
            tokens = tokens.t().reshape(-1)
        return scores
