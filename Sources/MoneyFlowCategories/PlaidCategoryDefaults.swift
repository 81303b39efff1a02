/// The default accounts for Plaid's `personal_finance_category`: every primary category and
/// every detailed one of the taxonomy (version 1 and the names version 2 added), so a Plaid-backed
/// transaction lands in a real account. Money moved between accounts is never spending or income:
/// when its other account is known (cash, savings, a card, a loan) it maps to an Assets or
/// Liabilities account; when it is not (an account transfer, a wire) it maps to nothing and stays
/// for the user. A transfer the transfer matching linked to another own account gets no category
/// at all (``Categorizer``). An empty string means "no category" (and stops the fallback to the
/// primary's account).
enum PlaidCategoryDefaults {
    static let primary: [String: String] = [
        "INCOME": "Income:Other", "TRANSFER_IN": "", "TRANSFER_OUT": "", "LOAN_PAYMENTS": "Expenses:Loans",
        "LOAN_DISBURSEMENTS": "", "BANK_FEES": "Expenses:Fees:Bank", "ENTERTAINMENT": "Expenses:Entertainment",
        "FOOD_AND_DRINK": "Expenses:Food", "GENERAL_MERCHANDISE": "Expenses:Shopping",
        "HOME_IMPROVEMENT": "Expenses:Home", "MEDICAL": "Expenses:Health", "PERSONAL_CARE": "Expenses:PersonalCare",
        "GENERAL_SERVICES": "Expenses:Services", "GOVERNMENT_AND_NON_PROFIT": "Expenses:Government",
        "TRANSPORTATION": "Expenses:Transport", "TRAVEL": "Expenses:Travel", "RENT_AND_UTILITIES": "Expenses:Housing",
        "OTHER": "",
    ]

    static let detailed: [String: String] = [
        // INCOME
        "INCOME_DIVIDENDS": "Income:Investments:Dividends", "INCOME_INTEREST_EARNED": "Income:Interest",
        "INCOME_RETIREMENT_PENSION": "Income:Pension", "INCOME_TAX_REFUND": "Income:TaxRefund",
        "INCOME_UNEMPLOYMENT": "Income:Benefits:Unemployment", "INCOME_WAGES": "Income:Salary",
        "INCOME_SALARY": "Income:Salary", "INCOME_OTHER_INCOME": "Income:Other", "INCOME_OTHER": "Income:Other",
        "INCOME_CHILD_SUPPORT": "Income:ChildSupport", "INCOME_CONTRACTOR": "Income:Contractor",
        "INCOME_GIG_ECONOMY": "Income:Gig", "INCOME_LONG_TERM_DISABILITY": "Income:Benefits:Disability",
        "INCOME_MILITARY": "Income:Military", "INCOME_RENTAL": "Income:Rental",
        // TRANSFER_IN / TRANSFER_OUT / LOAN_DISBURSEMENTS: moves between accounts, not income or spending.
        "TRANSFER_IN_CASH_ADVANCES_AND_LOANS": "Liabilities:Loans", "TRANSFER_IN_DEPOSIT": "Assets:Cash",
        "TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS": "Assets:Investments", "TRANSFER_IN_SAVINGS": "Assets:Savings",
        "TRANSFER_IN_ACCOUNT_TRANSFER": "", "TRANSFER_IN_OTHER_TRANSFER_IN": "", "TRANSFER_IN_TRANSFER_IN_FROM_APPS": "",
        "TRANSFER_IN_WIRE": "",
        "TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS": "Assets:Investments", "TRANSFER_OUT_SAVINGS": "Assets:Savings",
        "TRANSFER_OUT_WITHDRAWAL": "Assets:Cash", "TRANSFER_OUT_CRYPTO": "Assets:Crypto", "TRANSFER_OUT_ACCOUNT_TRANSFER": "",
        "TRANSFER_OUT_OTHER_TRANSFER_OUT": "", "TRANSFER_OUT_TRANSFER_OUT_FROM_APPS": "", "TRANSFER_OUT_WIRE": "",
        "LOAN_DISBURSEMENTS_AUTO": "Liabilities:Loans:Car", "LOAN_DISBURSEMENTS_CASH_ADVANCES": "Liabilities:Loans:CashAdvance",
        "LOAN_DISBURSEMENTS_EWA": "Liabilities:Loans:EWA", "LOAN_DISBURSEMENTS_MORTGAGE": "Liabilities:Loans:Mortgage",
        "LOAN_DISBURSEMENTS_PERSONAL": "Liabilities:Loans:Personal", "LOAN_DISBURSEMENTS_STUDENT": "Liabilities:Loans:Student",
        "LOAN_DISBURSEMENTS_OTHER_DISBURSEMENT": "Liabilities:Loans",
        // LOAN_PAYMENTS
        "LOAN_PAYMENTS_CAR_PAYMENT": "Expenses:Loans:Car", "LOAN_PAYMENTS_CREDIT_CARD_PAYMENT": "Liabilities:CreditCard",
        "LOAN_PAYMENTS_PERSONAL_LOAN_PAYMENT": "Expenses:Loans:Personal", "LOAN_PAYMENTS_MORTGAGE_PAYMENT": "Expenses:Loans:Mortgage",
        "LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT": "Expenses:Loans:Student", "LOAN_PAYMENTS_OTHER_PAYMENT": "Expenses:Loans",
        "LOAN_PAYMENTS_BNPL": "Expenses:Loans:BNPL", "LOAN_PAYMENTS_CASH_ADVANCES": "Expenses:Loans:CashAdvance",
        "LOAN_PAYMENTS_EWA": "Expenses:Loans:EWA",
        // BANK_FEES
        "BANK_FEES_ATM_FEES": "Expenses:Fees:ATM", "BANK_FEES_FOREIGN_TRANSACTION_FEES": "Expenses:Fees:ForeignTransaction",
        "BANK_FEES_INSUFFICIENT_FUNDS": "Expenses:Fees:InsufficientFunds", "BANK_FEES_INTEREST_CHARGE": "Expenses:Fees:Interest",
        "BANK_FEES_OVERDRAFT_FEES": "Expenses:Fees:Overdraft", "BANK_FEES_OTHER_BANK_FEES": "Expenses:Fees:Bank",
        "BANK_FEES_LATE_FEES": "Expenses:Fees:Late", "BANK_FEES_CASH_ADVANCE": "Expenses:Fees:CashAdvance",
        // ENTERTAINMENT
        "ENTERTAINMENT_CASINOS_AND_GAMBLING": "Expenses:Entertainment:Gambling",
        "ENTERTAINMENT_MUSIC_AND_AUDIO": "Expenses:Entertainment:Music",
        "ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS": "Expenses:Entertainment:Events",
        "ENTERTAINMENT_TV_AND_MOVIES": "Expenses:Entertainment:TVAndMovies",
        "ENTERTAINMENT_VIDEO_GAMES": "Expenses:Entertainment:Games",
        "ENTERTAINMENT_OTHER_ENTERTAINMENT": "Expenses:Entertainment",
        // FOOD_AND_DRINK
        "FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR": "Expenses:Food:Alcohol", "FOOD_AND_DRINK_COFFEE": "Expenses:Food:Coffee",
        "FOOD_AND_DRINK_FAST_FOOD": "Expenses:Food:FastFood", "FOOD_AND_DRINK_GROCERIES": "Expenses:Food:Groceries",
        "FOOD_AND_DRINK_RESTAURANT": "Expenses:Food:Restaurants", "FOOD_AND_DRINK_VENDING_MACHINES": "Expenses:Food:Vending",
        "FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK": "Expenses:Food",
        // GENERAL_MERCHANDISE
        "GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS": "Expenses:Shopping:Books",
        "GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES": "Expenses:Shopping:Clothing",
        "GENERAL_MERCHANDISE_CONVENIENCE_STORES": "Expenses:Shopping:Convenience",
        "GENERAL_MERCHANDISE_DEPARTMENT_STORES": "Expenses:Shopping:DepartmentStores",
        "GENERAL_MERCHANDISE_DISCOUNT_STORES": "Expenses:Shopping:DiscountStores",
        "GENERAL_MERCHANDISE_ELECTRONICS": "Expenses:Shopping:Electronics",
        "GENERAL_MERCHANDISE_GIFTS_AND_NOVELTIES": "Expenses:Shopping:Gifts",
        "GENERAL_MERCHANDISE_OFFICE_SUPPLIES": "Expenses:Shopping:OfficeSupplies",
        "GENERAL_MERCHANDISE_ONLINE_MARKETPLACES": "Expenses:Shopping:Online",
        "GENERAL_MERCHANDISE_PET_SUPPLIES": "Expenses:Shopping:Pets",
        "GENERAL_MERCHANDISE_SPORTING_GOODS": "Expenses:Shopping:Sports",
        "GENERAL_MERCHANDISE_SUPERSTORES": "Expenses:Shopping:Superstores",
        "GENERAL_MERCHANDISE_TOBACCO_AND_VAPE": "Expenses:Shopping:Tobacco",
        "GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE": "Expenses:Shopping",
        // HOME_IMPROVEMENT
        "HOME_IMPROVEMENT_FURNITURE": "Expenses:Home:Furniture", "HOME_IMPROVEMENT_HARDWARE": "Expenses:Home:Hardware",
        "HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE": "Expenses:Home:Repairs", "HOME_IMPROVEMENT_SECURITY": "Expenses:Home:Security",
        "HOME_IMPROVEMENT_OTHER_HOME_IMPROVEMENT": "Expenses:Home",
        // MEDICAL
        "MEDICAL_DENTAL_CARE": "Expenses:Health:Dental", "MEDICAL_EYE_CARE": "Expenses:Health:Eyes",
        "MEDICAL_NURSING_CARE": "Expenses:Health:Nursing", "MEDICAL_PHARMACIES_AND_SUPPLEMENTS": "Expenses:Health:Pharmacy",
        "MEDICAL_PRIMARY_CARE": "Expenses:Health:Doctor", "MEDICAL_VETERINARY_SERVICES": "Expenses:Pets:Vet",
        "MEDICAL_OTHER_MEDICAL": "Expenses:Health",
        // PERSONAL_CARE
        "PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS": "Expenses:PersonalCare:Fitness",
        "PERSONAL_CARE_HAIR_AND_BEAUTY": "Expenses:PersonalCare:HairAndBeauty",
        "PERSONAL_CARE_LAUNDRY_AND_DRY_CLEANING": "Expenses:PersonalCare:Laundry",
        "PERSONAL_CARE_OTHER_PERSONAL_CARE": "Expenses:PersonalCare",
        // GENERAL_SERVICES
        "GENERAL_SERVICES_ACCOUNTING_AND_FINANCIAL_PLANNING": "Expenses:Services:Financial",
        "GENERAL_SERVICES_AUTOMOTIVE": "Expenses:Transport:Car", "GENERAL_SERVICES_CHILDCARE": "Expenses:Family:Childcare",
        "GENERAL_SERVICES_CONSULTING_AND_LEGAL": "Expenses:Services:Legal", "GENERAL_SERVICES_EDUCATION": "Expenses:Education",
        "GENERAL_SERVICES_INSURANCE": "Expenses:Insurance", "GENERAL_SERVICES_POSTAGE_AND_SHIPPING": "Expenses:Services:Postage",
        "GENERAL_SERVICES_STORAGE": "Expenses:Services:Storage", "GENERAL_SERVICES_OTHER_GENERAL_SERVICES": "Expenses:Services",
        // GOVERNMENT_AND_NON_PROFIT
        "GOVERNMENT_AND_NON_PROFIT_DONATIONS": "Expenses:Donations",
        "GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES": "Expenses:Government:Fees",
        "GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT": "Expenses:Taxes",
        "GOVERNMENT_AND_NON_PROFIT_OTHER_GOVERNMENT_AND_NON_PROFIT": "Expenses:Government",
        // TRANSPORTATION
        "TRANSPORTATION_BIKES_AND_SCOOTERS": "Expenses:Transport:Bikes", "TRANSPORTATION_GAS": "Expenses:Transport:Fuel",
        "TRANSPORTATION_PARKING": "Expenses:Transport:Parking", "TRANSPORTATION_PUBLIC_TRANSIT": "Expenses:Transport:PublicTransit",
        "TRANSPORTATION_TAXIS_AND_RIDE_SHARES": "Expenses:Transport:Taxi", "TRANSPORTATION_TOLLS": "Expenses:Transport:Tolls",
        "TRANSPORTATION_OTHER_TRANSPORTATION": "Expenses:Transport",
        // TRAVEL
        "TRAVEL_FLIGHTS": "Expenses:Travel:Flights", "TRAVEL_LODGING": "Expenses:Travel:Lodging",
        "TRAVEL_RENTAL_CARS": "Expenses:Travel:RentalCars", "TRAVEL_OTHER_TRAVEL": "Expenses:Travel",
        // RENT_AND_UTILITIES
        "RENT_AND_UTILITIES_GAS_AND_ELECTRICITY": "Expenses:Housing:Energy",
        "RENT_AND_UTILITIES_INTERNET_AND_CABLE": "Expenses:Housing:Internet", "RENT_AND_UTILITIES_RENT": "Expenses:Housing:Rent",
        "RENT_AND_UTILITIES_SEWAGE_AND_WASTE_MANAGEMENT": "Expenses:Housing:Waste",
        "RENT_AND_UTILITIES_TELEPHONE": "Expenses:Housing:Phone", "RENT_AND_UTILITIES_WATER": "Expenses:Housing:Water",
        "RENT_AND_UTILITIES_OTHER_UTILITIES": "Expenses:Housing:Utilities",
        "OTHER_OTHER": "",
    ]
}
