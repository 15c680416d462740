extension DonutShop {
    /// Five donuts, the same at every start.
    static let seedMenu = [
        Donut(id: "1", name: "Glazed", price: 150),
        Donut(id: "2", name: "Chocolate", price: 200),
        Donut(id: "3", name: "Boston Cream", price: 250),
        Donut(id: "4", name: "Maple Bar", price: 225),
        Donut(id: "5", name: "Sprinkles", price: 175),
    ]
}
