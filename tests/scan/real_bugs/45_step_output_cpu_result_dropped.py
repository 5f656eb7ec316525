# source: https://github.com/Lightning-AI/pytorch-lightning/issues/6214
# also: https://github.com/Lightning-AI/pytorch-lightning/pull/6216
# kind: to_result_discarded
# bug: the loop called output.detach() and, when metrics were to be moved to the CPU, output.cpu() without assigning the results, so the stored step outputs stayed on the GPU with their graph; the fix assigned both results back to output.
# split: test2
import torch


class StepResult(dict):
    def detach(self):
        return StepResult({k: v.detach() for k, v in self.items()})

    def cpu(self):
        return StepResult({k: v.cpu() for k, v in self.items()})


class EvalLoop:
    def __init__(self, model, keep_on_cpu=True):
        self.model = model
        self.keep_on_cpu = keep_on_cpu
        self.collected = []

    def run_step(self, batch):
        logits = self.model(batch["x"])
        output = StepResult(loss=torch.nn.functional.mse_loss(logits, batch["y"]), preds=logits)
        output.detach()
        if self.keep_on_cpu:
            output.cpu()  # bug: to_result_discarded
        self.collected.append(output)
        return output
