import torch


class Predictor:
    def __init__(self, model, batch_size=64):
        self.batch_size = batch_size
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model  # expect: code.model_not_moved

    def predict(self, rows):
        inputs = torch.as_tensor(rows, dtype=torch.float32).to(self.device)
        with torch.no_grad():
            return self.model(inputs).cpu()


def predict_file(model_cls, checkpoint, rows):
    model = model_cls.load(checkpoint)
    return Predictor(model).predict(rows)
