import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased")
model.to("cuda")
model.eval()
scores = []
with torch.no_grad():
    for text in ["a", "b"] * 500:
        inputs = tokenizer(text, return_tensors="pt").to("cuda")
        scores.append(model(**inputs).logits)
        torch.cuda.empty_cache()  # expect: PP510 low
