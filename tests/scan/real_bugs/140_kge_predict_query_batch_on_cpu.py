# source: https://github.com/pykeen/pykeen/pull/41
# also: https://github.com/pykeen/pykeen/commit/4dfa4d7ef2082aee6dbd9610bf2a53df5a6a71e8
# kind: inputs_not_moved
# bug: the knowledge-graph model's label-based prediction helpers built their (head, relation) / (relation, tail) query batches with torch.tensor(..., dtype=torch.long) on the CPU and scored them with the model on self.device; the fix creates the batches with device=self.device.
# split: test4
import pandas as pd
import torch
import torch.nn as nn


class KGEModel(nn.Module):
    def __init__(self, entity_to_id, relation_to_id, dim=50, device="cuda"):
        super().__init__()
        self.entity_to_id = entity_to_id
        self.relation_to_id = relation_to_id
        self.id_to_entity = {v: k for k, v in entity_to_id.items()}
        self.ent = nn.Embedding(len(entity_to_id), dim)
        self.rel = nn.Embedding(len(relation_to_id), dim)
        self.device = torch.device(device)
        self.to(self.device)

    def score_all_tails(self, hr_batch):
        h = self.ent(hr_batch[:, 0])
        r = self.rel(hr_batch[:, 1])
        return -torch.cdist(h + r, self.ent.weight)

    def tail_predictions(self, head_label, relation_label):
        head_id = self.entity_to_id[head_label]
        rel_id = self.relation_to_id[relation_label]
        batch = torch.tensor([[head_id, rel_id]], dtype=torch.long)  # bug: inputs_not_moved
        with torch.no_grad():
            scores = self.score_all_tails(batch)[0].tolist()
        frame = pd.DataFrame({"tail_id": range(len(scores)), "score": scores})
        frame["tail_label"] = frame["tail_id"].map(self.id_to_entity)
        return frame.sort_values("score", ascending=False)
