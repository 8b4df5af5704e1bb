import { CopyField } from "~/components/ui/copy-field";
import { ShareButton as ShareLinkButton } from "~/components/ui/share-button";

const COPIED = { title: "Link Copied!", description: "Profile link copied to clipboard." };

/** Share uses the device's share sheet when there is one, otherwise copies the link. */
export function ShareButton({ url, title }: { url: string; title: string }) {
  return <ShareLinkButton url={url} title={title} copiedToast={COPIED} />;
}

/** The profile's address, to select or copy. */
export function ProfileLink({ url }: { url: string }) {
  return (
    <CopyField
      id="profile-link"
      label="Your profile link"
      labelHidden
      value={url}
      buttonText="Copy Link"
      copiedText="Copy Link"
      copiedToast={COPIED}
    />
  );
}
