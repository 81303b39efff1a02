print("moneyflow")
