// The look of every text box and label, in a module of its own: a page whose form only needs the
// classes (discovery's filters) does not load the field components with them.
export const inputClasses =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none aria-invalid:border-red-500 disabled:bg-slate-100";

export const labelClasses = "mb-1 block text-sm font-medium text-slate-800";
