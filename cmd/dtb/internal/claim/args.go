package claim

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// classNames are the names that stand for every material of a class.
var classNames = []struct {
	name  string
	class rules.Class
}{{"A", rules.ClassA}, {"B", rules.ClassB}}

// ParseMaterials parses material names such as KKKvK, A and B standing
// for every material of class A or B (ClassMaterials).
func ParseMaterials(names ...string) ([]index.Material, error) {
	var ms []index.Material
names:
	for _, name := range names {
		for _, c := range classNames {
			if name == c.name {
				ms = append(ms, ClassMaterials(c.class)...)
				continue names
			}
		}
		m, err := index.ParseMaterial(name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// Args returns the arguments of dtb claim that ask q: the names of its
// materials (materialNames), then --side unless either side is to move,
// --where, --value, --cursed and --examples, always, since the command's
// default is not Query's zero.
func (q Query) Args() []string {
	args := materialNames(q.Materials)
	if len(q.Sides) == 1 {
		args = append(args, "--side", strings.ToLower(q.Sides[0].String()))
	}
	for _, c := range q.Where {
		args = append(args, "--where", c.String())
	}
	for _, c := range q.Values {
		args = append(args, "--value", c.String())
	}
	if q.Rule2Cursed {
		args = append(args, "--cursed", "rule2")
	}
	return append(args, "--examples", strconv.Itoa(q.Examples))
}

// materialNames returns A and B for materials that are all those of class
// A or B in a row (ParseMaterials), else the name of each material.
func materialNames(ms []index.Material) []string {
	var classes, names []string
	for _, m := range ms {
		names = append(names, m.String())
	}
next:
	for rest := ms; len(rest) > 0; {
		for _, c := range classNames {
			if cm := ClassMaterials(c.class); len(cm) <= len(rest) && slices.Equal(rest[:len(cm)], cm) {
				classes = append(classes, c.name)
				rest = rest[len(cm):]
				continue next
			}
		}
		return names
	}
	return classes
}
