// placeholder: replaced by the lesson
