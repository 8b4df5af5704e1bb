/** A toast to show: what an action's reply or a redirect carries, and what the toaster draws. */
export type ToastInput = {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
};
