import { describe, expect, it } from "vitest";
import { markupClasses, parseStylesheet, selectorClasses, usedStyles } from "./used-styles.server";

const used = (stylesheet: string, html: string) =>
  usedStyles(parseStylesheet(stylesheet), markupClasses(html));

describe("selectorClasses", () => {
  it.each([
    [".p-4", ["p-4"]],
    [".sm\\:flex-row", ["sm:flex-row"]],
    [".w-1\\/2", ["w-1/2"]],
    [".\\32 xl\\:text-lg", ["2xl:text-lg"]],
    [".\\[\\&_h2\\]\\:text-xl h2", ["[&_h2]:text-xl"]],
    [".group-hover\\:underline:is(:where(.group):hover *)", ["group-hover:underline", "group"]],
    [".space-y-4>:not(:last-child)", ["space-y-4"]],
    [":not(.hidden)", []],
    ["a:not(.x).y", ["y"]],
    ['[data-label="a.b"].z', ["z"]],
    ["dialog.sheet[open]", ["sheet"]],
    ["*,:before,:after", []],
  ])("%s requires %j", (selector, classes) => {
    expect(selectorClasses(selector)).toEqual(classes);
  });
});

describe("markupClasses", () => {
  it("reads every class attribute, entities decoded", () => {
    const classes = markupClasses(
      '<div class="a  b"><svg class="lucide x"></svg><p class="[&amp;_h2]:mt-2">x</p><span data-class="no">y</span></div>',
    );
    expect([...classes].sort()).toEqual(["[&_h2]:mt-2", "a", "b", "lucide", "x"]);
  });
});

describe("usedStyles", () => {
  const sheet =
    "/*! banner */@layer theme{:root,:host{--color-a:red;--color-b:blue;--spacing:.25rem;--shadow:0 0 var(--color-b)}}" +
    "@layer base{*{margin:0}h1{font-size:inherit}}@layer components;" +
    "@layer utilities{.text-a{color:var(--color-a)}.p-4{padding:calc(var(--spacing) * 4)}.shadow{box-shadow:var(--shadow);--tw-x:1}" +
    "@media (width>=40rem){.sm\\:p-4{padding:1rem}.sm\\:hidden{display:none}}.animate-spin{animation:spin 1s}}" +
    '@property --tw-x{syntax:"*";inherits:false}@property --tw-y{syntax:"*";inherits:false}' +
    "@keyframes spin{to{transform:rotate(1turn)}}@keyframes ping{to{opacity:0}}";

  it("keeps the rules of the classes on the page and every class-less rule", () => {
    const out = used(sheet, '<p class="text-a sm:p-4">x</p>');
    expect(out).toContain(".text-a{color:var(--color-a)}");
    expect(out).toContain("@media (width>=40rem){.sm\\:p-4{padding:1rem}}");
    expect(out).toContain("@layer base{*{margin:0}h1{font-size:inherit}}");
    expect(out).toContain("@layer components;");
    expect(out).not.toContain(".p-4{");
    expect(out).not.toContain("sm\\:hidden");
    expect(out).not.toContain("banner");
  });

  it("keeps the custom properties that what is kept mentions, and what they mention", () => {
    const out = used(sheet, '<p class="shadow">x</p>');
    expect(out).toContain("@layer theme{:root,:host{--color-b:blue;--shadow:0 0 var(--color-b)}}");
    expect(out).toContain('@property --tw-x{syntax:"*";inherits:false}');
    expect(out).not.toContain("--tw-y");
    expect(out).not.toContain("--color-a");
  });

  it("keeps an animation's keyframes only when a kept rule names it", () => {
    expect(used(sheet, '<p class="animate-spin">x</p>')).toContain("@keyframes spin{");
    expect(used(sheet, '<p class="text-a">x</p>')).not.toContain("@keyframes spin");
    expect(used(sheet, '<p class="animate-spin">x</p>')).not.toContain("@keyframes ping");
  });

  it("keeps the layers, in order, even when one has nothing for the page", () => {
    const out = used(sheet, "<p>x</p>");
    expect(out.indexOf("@layer theme{")).toBeLessThan(out.indexOf("@layer base{"));
    expect(out).toContain("@layer utilities{}");
  });

  it("takes strings and escapes as they are", () => {
    const out = used(
      '.before\\:content-\\[\\"\\}\\"\\]:before{content:"}"}.a{b:c}',
      '<p class="before:content-[&quot;}&quot;]">x</p>',
    );
    expect(out).toBe('.before\\:content-\\[\\"\\}\\"\\]:before{content:"}"}');
  });
});
