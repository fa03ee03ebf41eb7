import pandas as pd
import torchaudio
from torch.utils.data import Dataset


class UrbanSoundDataset(Dataset):
    def __init__(self, annotations_file, audio_dir, transformation, device):
        self.annotations = pd.read_csv(annotations_file)
        self.audio_dir = audio_dir
        self.device = device
        self.transformation = transformation.to(self.device)

    def __len__(self):
        return len(self.annotations)

    def __getitem__(self, index):
        path = f"{self.audio_dir}/{self.annotations.iloc[index, 0]}"
        label = self.annotations.iloc[index, 6]
        signal, sr = torchaudio.load(path)
        signal = signal.to(self.device)
        signal = self.transformation(signal)
        return signal, label
