import GraphQL
import NormProject

/// The schema types that operations and fragments reference, found by walking their
/// selections and variables: the schema types codegen writes, as Apollo iOS's codegen
/// gathers them. Enums, input objects and custom scalars; the object types, interfaces and
/// unions selected on (root types, fields' types, type conditions), with every object type
/// of an interface or a union and every interface of an object type.
struct UsedSchemaTypes {
    let schema: SchemaTypes
    private(set) var names: Set<String> = []

    init(schema: SchemaTypes) { self.schema = schema }

    mutating func add(_ operation: OperationDefinition) {
        for definition in operation.variableDefinitions { addInput(schema.shape(of: definition.type).named) }
        let root = schema.rootType(of: ProjectDefinition.Kind(rawValue: operation.operation.rawValue) ?? .query)
        addComposite(root)
        add(operation.selectionSet, on: root)
    }

    mutating func add(_ fragment: FragmentDefinition) {
        addComposite(fragment.typeCondition.name.value)
        add(fragment.selectionSet, on: fragment.typeCondition.name.value)
    }

    private mutating func add(_ selections: GraphQL.SelectionSet, on typeName: String) {
        for selection in selections.selections {
            switch selection {
            case let field as Field:
                guard let type = schema.fieldType(field.name.value, of: typeName) else { continue }
                let named = TypeShape(type).named
                if let child = field.selectionSet {
                    addComposite(named.name)
                    add(child, on: named.name)
                } else {
                    addLeaf(named)
                }
            case let inline as InlineFragment:
                if let condition = inline.typeCondition?.name.value { addComposite(condition) }
                add(inline.selectionSet, on: inline.typeCondition?.name.value ?? typeName)
            default: break  // a spread's fragment is added on its own
            }
        }
    }

    private mutating func addLeaf(_ type: GraphQLNamedType) {
        if type is GraphQLEnumType || (type is GraphQLScalarType && !SchemaTypes.builtInScalars.contains(type.name)) {
            names.insert(type.name)
        }
    }

    /// An object type, interface or union, with the types Apollo iOS's codegen references
    /// with it: an interface's or a union's object types, an object type's interfaces.
    private mutating func addComposite(_ name: String) {
        guard names.insert(name).inserted else { return }
        switch schema.type(named: name) {
        case let object as GraphQLObjectType:
            for interface in (try? object.interfaces()) ?? [] { addComposite(interface.name) }
        case is GraphQLInterfaceType, is GraphQLUnionType:
            for object in schema.possibleTypes(of: name) { addComposite(object) }
        default: break
        }
    }

    private mutating func addInput(_ type: GraphQLNamedType) {
        guard let input = type as? GraphQLInputObjectType else { return addLeaf(type) }
        guard names.insert(input.name).inserted else { return }
        for field in ((try? input.fields()) ?? [:]).values { addInput(TypeShape(field.type).named) }
    }
}
