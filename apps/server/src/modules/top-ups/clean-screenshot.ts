import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import sharp from 'sharp';
import { ERROR_CODES } from '@paydesk/shared';
import {
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_MAX_PIXELS,
  type ScreenshotType,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { AppError, ValidationError } from '../../lib/errors.ts';

export type CleanScreenshot = { type: ScreenshotType; extension: 'png' | 'jpg'; bytes: Buffer };

/**
 * The upload rules of DESIGN 9, in the order that costs least: the size (the multipart limit refused more
 * already), the type from the content's magic bytes (the name and the declared type are the client's
 * word), the pixel count from the header (before anything is decoded: a 50000 x 50000 "pixel bomb" of a
 * few hundred bytes is refused here), then a re-encode in the same format, which drops every metadata
 * block (EXIF with its GPS position, comments, ICC text) after applying the EXIF orientation.
 */
export async function cleanScreenshot(upload: unknown): Promise<CleanScreenshot> {
  if (!Buffer.isBuffer(upload) || upload.length === 0) {
    throw ValidationError.field(
      'screenshot',
      'The screenshot field is required (a PNG or JPG file).',
      ERROR_CODES.screenshotRequired,
    );
  }
  if (upload.length > SCREENSHOT_MAX_BYTES) {
    throw new AppError(413, 'The screenshot is larger than 2 MB.', { code: ERROR_CODES.screenshotTooLarge });
  }
  const detected = await fileTypeFromBuffer(upload);
  if (detected?.mime !== 'image/png' && detected?.mime !== 'image/jpeg') {
    throw new AppError(415, 'The screenshot must be a PNG or JPG image.', {
      code: ERROR_CODES.screenshotType,
    });
  }
  let size: { width?: number; height?: number };
  try {
    size = imageSize(upload);
  } catch {
    throw unreadable();
  }
  const { width = 0, height = 0 } = size;
  if (width <= 0 || height <= 0) throw unreadable();
  if (width * height > SCREENSHOT_MAX_PIXELS) {
    throw ValidationError.field(
      'screenshot',
      `The screenshot is ${width} x ${height} pixels; at most ${SCREENSHOT_MAX_PIXELS / 1_000_000} megapixels are accepted.`,
      ERROR_CODES.screenshotDimensions,
    );
  }
  const isPng = detected.mime === 'image/png';
  try {
    // limitInputPixels again, in case a header lied to image-size: sharp refuses before decoding too.
    const image = sharp(upload, { limitInputPixels: SCREENSHOT_MAX_PIXELS, failOn: 'error' }).rotate();
    const bytes = await (isPng ? image.png() : image.jpeg({ quality: 90, mozjpeg: true })).toBuffer();
    return isPng
      ? { type: 'image/png', extension: 'png', bytes }
      : { type: 'image/jpeg', extension: 'jpg', bytes };
  } catch {
    throw unreadable();
  }
}

const unreadable = () =>
  ValidationError.field(
    'screenshot',
    'The screenshot cannot be read as an image.',
    ERROR_CODES.screenshotUnreadable,
  );
