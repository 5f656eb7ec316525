# source: https://github.com/pykeen/pykeen/pull/1229
# kind: attribute_not_buffer
# bug: the inductive knowledge-graph model kept its mode -> entity-representation mapping in a plain dict, so the validation/testing representation modules built for the unseen-entity graphs were never registered as submodules and stayed on the CPU after model.to("cuda"), crashing evaluation; the fix stores the mapping in an nn.ModuleDict.
# split: test21
import torch
import torch.nn as nn

TRAINING, VALIDATION, TESTING = "training", "validation", "testing"


class NodePieceLikeEncoder(nn.Module):
    def __init__(self, anchor_ids, num_anchors, dim):
        super().__init__()
        self.register_buffer("anchor_ids", anchor_ids)
        self.anchor_emb = nn.Embedding(num_anchors, dim)
        self.proj = nn.Linear(dim, dim)

    @property
    def max_id(self):
        return self.anchor_ids.size(0)

    def forward(self, indices):
        return self.proj(self.anchor_emb(self.anchor_ids[indices]).mean(dim=1))


def build_encoder(num_entities, num_anchors=20, anchors_per_entity=4, dim=32):
    anchor_ids = torch.randint(0, num_anchors, (num_entities, anchors_per_entity))
    return NodePieceLikeEncoder(anchor_ids, num_anchors, dim)


class InductiveDistMult(nn.Module):
    def __init__(self, num_train_entities, num_valid_entities, num_test_entities=None, num_relations=10, dim=32):
        super().__init__()
        self.entity_representations = build_encoder(num_train_entities, dim=dim)
        self.relation_representations = nn.Embedding(num_relations, dim)
        self._mode_to_representations = {TRAINING: self.entity_representations}  # bug: attribute_not_buffer
        self._mode_to_representations[VALIDATION] = validation_repr = build_encoder(num_valid_entities, dim=dim)
        if num_test_entities is None:
            testing_repr = validation_repr
        else:
            testing_repr = build_encoder(num_test_entities, dim=dim)
        self._mode_to_representations[TESTING] = testing_repr

    def _entity_repr(self, mode):
        if mode in self._mode_to_representations:
            return self._mode_to_representations[mode]
        raise ValueError(f"unsupported mode={mode}")

    def score_hrt(self, hrt, mode=TRAINING):
        ent = self._entity_repr(mode)
        h, r, t = ent(hrt[:, 0]), self.relation_representations(hrt[:, 1]), ent(hrt[:, 2])
        return (h * r * t).sum(dim=-1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = InductiveDistMult(100, 40).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = torch.stack([torch.randint(0, 100, (64,)), torch.randint(0, 10, (64,)), torch.randint(0, 100, (64,))], 1).to(device)
    loss = -torch.nn.functional.logsigmoid(model.score_hrt(train)).mean()
    loss.backward()
    opt.step()
    valid = torch.stack([torch.randint(0, 40, (16,)), torch.randint(0, 10, (16,)), torch.randint(0, 40, (16,))], 1).to(device)
    with torch.no_grad():
        print(model.score_hrt(valid, mode=VALIDATION).shape)
