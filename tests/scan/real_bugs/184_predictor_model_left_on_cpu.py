# source: https://github.com/ludwig-ai/ludwig/pull/3554
# also: https://github.com/ludwig-ai/ludwig/commit/2bc1488a9001dce650f98deca42abbb988b96267
# kind: model_not_moved
# bug: the batch predictor resolved the torch device, moved every input feature tensor and the metrics to it, but never moved the (freshly loaded) model, so `predict` on a GPU machine fed CUDA inputs to CPU weights; the fix moves the model to the device at the start of batch_predict / batch_evaluation.
# split: test7
from collections import defaultdict

import numpy as np
import torch


def get_torch_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


class Predictor:
    def __init__(self, model, batch_size=128):
        self.batch_size = batch_size
        self.device = get_torch_device()
        self.model = model  # bug: model_not_moved
        self.model.metrics_to_device(self.device)

    def _predict(self, batch):
        inputs = {
            name: torch.from_numpy(np.array(batch[name], copy=True)).to(self.device)
            for name in self.model.input_feature_names
        }
        outputs = self.model(inputs)
        return self.model.outputs_to_predictions(outputs)

    def batch_predict(self, dataset):
        was_training = self.model.training
        self.model.eval()
        predictions = defaultdict(list)
        with torch.no_grad():
            for batch in dataset.batches(self.batch_size):
                for key, value in self._predict(batch).items():
                    predictions[key].append(value.detach().cpu())
        self.model.train(was_training)
        return {k: torch.cat(v) for k, v in predictions.items()}


def predict_command(model_path, dataset, model_cls):
    model = model_cls.load(model_path)
    return Predictor(model).batch_predict(dataset)
