import torch
from saicinpainting.training.trainers import load_checkpoint


class InpaintHandler:
    def initialize(self, ctx):
        self.model = load_checkpoint(ctx.model_dir)
        self.model.eval()
        self.model.to("cuda")

    def inference(self, data):
        out = []
        self.model.eval()
        for batch in data:
            out.append(self.model(batch)["inpainted"].cpu())  # expect: PP503 high  # expect: PP501
        return out


def inference(generator, data):
    generator.eval()
    for request in data:
        yield generator(torch.as_tensor(request["z"]).cuda())  # expect: PP503 high


def validate(trainer, loader):
    model = trainer.get_model()
    model.eval()
    for sample in loader:
        trainer.record(model(sample))  # expect: PP503 high
