# source: https://github.com/sktime/pytorch-forecasting/pull/137
# also: https://github.com/sktime/pytorch-forecasting/commit/6289e70cd7dd604cb0c4b6d032499f4319f9bbc2
# kind: to_result_discarded
# bug: `BaseModel.predict()` tried to move each input of the batch dict to the network's device with `x[name].to(self.device)` but never stored the result, so predicting with a model on the GPU still fed it CPU tensors; the merged PR assigns `x[name] = x[name].to(self.device)`.
# split: test3
import torch
from pytorch_lightning import LightningModule
from tqdm import tqdm


class ForecastModel(LightningModule):
    def transform_output(self, out):
        return out["prediction"]

    def predict(self, dataloader, show_progress_bar=False):
        self.eval()
        outputs = []
        bar = tqdm(total=len(dataloader), disable=not show_progress_bar)
        with torch.no_grad():
            for x, _ in dataloader:
                for name in x.keys():
                    if x[name].device != self.device:
                        x[name].to(self.device)  # bug: to_result_discarded
                out = self(x)
                outputs.append(self.transform_output(out).cpu())
                bar.update()
        bar.close()
        return torch.cat(outputs)
