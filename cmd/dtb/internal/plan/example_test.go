package plan_test

import (
	"log"
	"os"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/retro"
)

// The Makefile of the tables up to 2 pieces.
func Example() {
	units, err := retro.Units(retro.Options{Pieces: 2})
	if err != nil {
		log.Fatal(err)
	}
	b := plan.Build{Units: units, Dtb: "/usr/local/bin/dtb", Dir: "/data/tables", Threads: 4}
	if err := b.Write(os.Stdout, "make"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// # Written by dtb plan: 3 units of tables into /data/tables.
	// #   make -f FILE -j N            every table, then the manifest
	// #   make -f FILE -j N MvM        one unit and those it needs
	// # Each unit's tables are built from those of its deps by dtb gen --unit;
	// # dtb gen --manifest lists the valid tables at the end.
	// # Needs GNU make 4.3 or later (grouped targets, &:).
	//
	// DTB := /usr/local/bin/dtb
	// DIR := /data/tables
	// GEN := $(DTB) gen --out $(DIR) --threads 4
	//
	// .PHONY: manifest KvK KvM MvM
	//
	// manifest: $(DIR)/MANIFEST.json
	//
	// $(DIR)/MANIFEST.json: \
	//     $(DIR)/KvK.dtb \
	//     $(DIR)/KvM.dtb \
	//     $(DIR)/MvK.dtb \
	//     $(DIR)/MvM.dtb
	//	$(DTB) gen --manifest --out $(DIR)
	//
	// KvK: $(DIR)/KvK.dtb
	// $(DIR)/KvK.dtb &:
	//	$(GEN) --unit KvK
	//
	// KvM: $(DIR)/KvM.dtb $(DIR)/MvK.dtb
	// $(DIR)/KvM.dtb $(DIR)/MvK.dtb &: \
	//     $(DIR)/KvK.dtb
	//	$(GEN) --unit KvM
	//
	// MvM: $(DIR)/MvM.dtb
	// $(DIR)/MvM.dtb &: \
	//     $(DIR)/KvM.dtb \
	//     $(DIR)/MvK.dtb
	//	$(GEN) --unit MvM
}
