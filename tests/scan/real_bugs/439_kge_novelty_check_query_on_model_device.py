# source: https://github.com/pykeen/pykeen/pull/50
# kind: other
# bug: the novelty check used when listing predictions built the query triple on the model's device and compared it against the training triples kept by the triples factory on the CPU, so predicting with a GPU-trained model raised a device mismatch; the fix creates the query triple on the same device as the stored training triples.
# split: test20
import pandas as pd
import torch
import torch.nn as nn


class TriplesFactory:
    def __init__(self, num_entities, num_relations, n=400):
        self.num_entities, self.num_relations = num_entities, num_relations
        self.mapped_triples = torch.stack([
            torch.randint(0, num_entities, (n,)),
            torch.randint(0, num_relations, (n,)),
            torch.randint(0, num_entities, (n,)),
        ], dim=1)


class DistMult(nn.Module):
    def __init__(self, triples_factory, dim=32):
        super().__init__()
        self.triples_factory = triples_factory
        self.entity = nn.Embedding(triples_factory.num_entities, dim)
        self.relation = nn.Embedding(triples_factory.num_relations, dim)

    @property
    def device(self):
        return self.entity.weight.device

    def score_t(self, hr_batch):
        hr = self.entity(hr_batch[:, 0]) * self.relation(hr_batch[:, 1])
        return hr @ self.entity.weight.t()

    def _novel(self, h, r, t):
        triple = torch.tensor(data=[h, r, t], dtype=torch.long, device=self.device).view(1, 3)  # bug: other
        return not (triple == self.triples_factory.mapped_triples).all(dim=1).any().item()

    def predict_tails(self, head, relation, k=5):
        self.eval()
        with torch.no_grad():
            hr = torch.tensor([[head, relation]], device=self.device)
            scores = self.score_t(hr)[0]
        top = scores.topk(k)
        rows = [(t, s, self._novel(head, relation, t)) for t, s in zip(top.indices.tolist(), top.values.tolist())]
        return pd.DataFrame(rows, columns=["tail_id", "score", "novel"])


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tf = TriplesFactory(num_entities=50, num_relations=5)
    model = DistMult(tf).to(device)
    print(model.predict_tails(head=3, relation=1))
