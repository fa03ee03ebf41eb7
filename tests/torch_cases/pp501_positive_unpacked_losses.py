import torch


# A trainer whose batch step sums two losses, runs backward on the sum and hands both back.
class Trainer:
    def __init__(self, model, optimizer, loader, writer):
        self.model = model.to(torch.device("cuda"))
        self.optimizer = optimizer
        self.loader = loader
        self.writer = writer
        self.steps = 0

    def train_and_validate(self, epochs):
        for _ in range(epochs):
            epoch_loss = 0.0
            for batch in self.loader:
                recognition_loss, translation_loss = self._train_batch(batch)
                epoch_loss += translation_loss.detach().cpu().numpy()  # expect: PP501
                self.steps += 1
            print(epoch_loss, recognition_loss)

    def _train_batch(self, batch):
        recognition_loss, translation_loss = self.model.get_loss_for_batch(batch.cuda())
        normalized_recognition_loss = recognition_loss / len(batch)
        normalized_translation_loss = translation_loss / len(batch)
        total_loss = normalized_recognition_loss + normalized_translation_loss
        total_loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return normalized_recognition_loss, normalized_translation_loss
