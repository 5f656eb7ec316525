# source: https://github.com/huggingface/trl/pull/513
# kind: eval_batch_not_moved
# bug: the reward-model trainer's prediction_step moved the evaluation inputs with self._prepare_inputs and computed the preference logits on the accelerator, but returned dummy labels made with torch.zeros(logits.shape[0]) on the CPU, so the evaluation loop's cross-process gather (NCCL under DeepSpeed) received a host tensor and evaluation crashed; the fix passes the labels through self._prepare_inputs to put them on the device.
# split: test25
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
from torch import nn


class MiniTrainer:
    def __init__(self, model: nn.Module, device: torch.device):
        self.model = model.to(device)
        self.device = device

    def _prepare_inputs(self, data: Union[torch.Tensor, Dict[str, Any]]):
        if isinstance(data, dict):
            return {k: self._prepare_inputs(v) for k, v in data.items()}
        if isinstance(data, torch.Tensor):
            return data.to(self.device)
        return data


class RewardTrainer(MiniTrainer):
    def compute_loss(self, model, inputs, return_outputs=False):
        chosen = model(inputs["input_ids_chosen"])
        rejected = model(inputs["input_ids_rejected"])
        loss = -nn.functional.logsigmoid(chosen - rejected).mean()
        if return_outputs:
            return loss, {"rewards_chosen": chosen, "rewards_rejected": rejected}
        return loss

    def prediction_step(self, model: nn.Module, inputs: Dict[str, torch.Tensor], prediction_loss_only: bool,
                        ignore_keys: Optional[List[str]] = None) -> Tuple[Optional[torch.Tensor], ...]:
        inputs = self._prepare_inputs(inputs)
        ignore_keys = ignore_keys or []
        with torch.no_grad():
            loss, logits_dict = self.compute_loss(model, inputs, return_outputs=True)
        if prediction_loss_only:
            return loss, None, None
        logits = tuple(v.detach() for k, v in logits_dict.items() if k not in ignore_keys)
        logits = torch.stack(logits).mean(dim=2).softmax(dim=0).T
        labels = torch.zeros(logits.shape[0])  # bug: eval_batch_not_moved
        return loss.detach(), logits, labels


class TinyRewardModel(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, ids):
        return self.head(self.emb(ids))


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    trainer = RewardTrainer(TinyRewardModel(), dev)
    batch = {"input_ids_chosen": torch.randint(0, 1000, (4, 12)), "input_ids_rejected": torch.randint(0, 1000, (4, 12))}
    loss, logits, labels = trainer.prediction_step(trainer.model, batch, prediction_loss_only=False)
    print(loss.device, logits.device, labels.device)
