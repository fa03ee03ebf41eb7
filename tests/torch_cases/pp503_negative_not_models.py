import torch
import triton_python_backend_utils as pb_utils
from saicinpainting.training.trainers import load_checkpoint


class TritonPythonModel:
    def _validate_input_dict(self, expected_count):
        self.model.eval()
        for i in range(expected_count):
            if i not in self.input_dict:
                raise pb_utils.TritonModelException(f"input {i} not found")


class InpaintHandler:
    def initialize(self, ctx):
        self.model = load_checkpoint(ctx.model_dir)
        self.model.freeze()
        self.model.to("cuda")

    def inference(self, data):
        out = []
        for batch in data:
            out.append(self.model(batch)["inpainted"].cpu())  # expect: PP501
        return out


def inference(pipe, data):
    pipe.eval()
    for request in data:
        generator = [torch.Generator(device="cuda").manual_seed(request["seed"])]
        with torch.no_grad():
            yield pipe(request["prompt"], generator=generator)


def validate(trainer, task, subsets):
    for subset in subsets:
        itr = task.get_batch_iterator(task.dataset(subset), trainer.get_model().max_positions())
        for sample in itr:
            trainer.valid_step(sample)
